/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * An MPI program as users write them, for test/mpi_memif.sh: rank 0 and
 * rank 1 ping-pong messages of 8 B to 1 MiB and check every byte of every
 * echo. With Open MPI's OFI MTL on the dpdk provider, the ranks start
 * together, as mpirun starts them, and their first messages leave before
 * their memif wire may be up.
 *
 * usage: mpi_pingpong [iterations per size]
 * Prints "mpi_pingpong: ok N round trips" on rank 0 and exits 0 when every
 * echo was right.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#define MAX_SIZE	(1 << 20)

static void
fill(uint8_t *buf, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (uint8_t)(seed * 29 + i * 13 + (i >> 10));
}

int
main(int argc, char **argv)
{
	static const int sizes[] = { 8, 1024, 65536, MAX_SIZE };
	int iters = argc > 1 ? atoi(argv[1]) : 20, rank, nb, s, i, bad = 0, rounds = 0;
	uint8_t *buf, *ref;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nb);
	buf = malloc(MAX_SIZE);
	ref = malloc(MAX_SIZE);
	if (nb != 2 || buf == NULL || ref == NULL) {
		fprintf(stderr, "mpi_pingpong: needs 2 ranks and memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	for (s = 0; s < (int)(sizeof(sizes) / sizeof(sizes[0])); s++) {
		for (i = 0; i < iters; i++) {
			fill(ref, (size_t)sizes[s], (unsigned int)(s * 1000 + i));
			if (rank == 0) {
				MPI_Send(ref, sizes[s], MPI_BYTE, 1, i, MPI_COMM_WORLD);
				MPI_Recv(buf, sizes[s], MPI_BYTE, 1, i, MPI_COMM_WORLD,
					 MPI_STATUS_IGNORE);
			} else {
				MPI_Recv(buf, sizes[s], MPI_BYTE, 0, i, MPI_COMM_WORLD,
					 MPI_STATUS_IGNORE);
				MPI_Send(buf, sizes[s], MPI_BYTE, 0, i, MPI_COMM_WORLD);
			}
			bad += memcmp(buf, ref, (size_t)sizes[s]) != 0;
			rounds++;
		}
	}
	MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("mpi_pingpong: %s %d round trips\n", bad == 0 ? "ok" : "CORRUPT", rounds);
	free(buf);
	free(ref);
	MPI_Finalize();
	return bad == 0 ? 0 : 1;
}
