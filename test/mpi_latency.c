/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The fi-dpdk authors
 */

/*
 * The ping-pong latency benchmark MPI users run (OSU's osu_latency does the
 * same), for scripts/mpi_peers.sh: rank 0 and rank 1 bounce one message of
 * each size from 8 B to 4 MiB, doubling, and rank 0 prints the one-way time
 * (half the mean round trip) after a warm-up. The first and last bytes of
 * every echo are checked, so a transport that loses data cannot look fast.
 *
 * usage: mpi_latency [max size]
 * Prints "size usec" lines on rank 0, then "mpi_latency: ok"; exits 0.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#define MIN_SIZE	8
#define MAX_SIZE	(4 << 20)
#define BYTES_PER_SIZE	(64 << 20)	/* iterations: about this much each way */

static int
iters_for(int size)
{
	int n = BYTES_PER_SIZE / size;

	return n < 50 ? 50 : n > 10000 ? 10000 : n;
}

/* One exchange of size bytes; 0 when the echo's ends are the sent ones. */
static int
bounce(uint8_t *buf, int size, int rank, uint8_t mark)
{
	uint8_t tail = (uint8_t)~mark;

	if (rank == 0) {
		buf[0] = mark;
		buf[size - 1] = tail;
		MPI_Send(buf, size, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
		MPI_Recv(buf, size, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		return buf[0] != mark || buf[size - 1] != tail;
	}
	MPI_Recv(buf, size, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Send(buf, size, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
	return 0;
}

int
main(int argc, char **argv)
{
	int max = argc > 1 ? atoi(argv[1]) : MAX_SIZE, rank, nb, size, i, n, bad = 0;
	double t0;
	uint8_t *buf;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nb);
	if (max < MIN_SIZE || max > MAX_SIZE)
		max = MAX_SIZE;
	buf = calloc(1, (size_t)max);
	if (nb != 2 || buf == NULL) {
		fprintf(stderr, "mpi_latency: needs 2 ranks and memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	for (size = MIN_SIZE; size <= max; size *= 2) {
		n = iters_for(size);
		for (i = 0; i < n / 10; i++)
			bad += bounce(buf, size, rank, (uint8_t)i);
		MPI_Barrier(MPI_COMM_WORLD);
		t0 = MPI_Wtime();
		for (i = 0; i < n; i++)
			bad += bounce(buf, size, rank, (uint8_t)i);
		if (rank == 0)
			printf("%d %.2f\n", size, (MPI_Wtime() - t0) * 1e6 / n / 2);
	}
	MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("mpi_latency: %s\n", bad == 0 ? "ok" : "CORRUPT");
	free(buf);
	MPI_Finalize();
	return bad == 0 ? 0 : 1;
}
