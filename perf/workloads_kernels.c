/*
 * perf/workloads_kernels.c -- the named built-in kernels, written as the SASS
 * that nvcc emits for sm_70 for the CUDA code quoted above each one (register
 * allocation, loop structure and dependence pattern follow the compiled code;
 * a few address computations are merged).  Launch shapes are those of real
 * launches sized so that every kernel fills an 80-SM V100 for at least one
 * full wave at its occupancy, and the whole set is about 8.9 million
 * warp-instructions (see tests/test_workloads.c).
 *
 * Annotations in braces tell the generator what the trace would show and the
 * static code cannot: trip counts, branch outcomes, and where global data is
 * found (l1/l2 share, the rest from DRAM), from the kernels' reuse:
 * streaming inputs miss to DRAM, tiles re-read by neighbouring CTAs hit L2,
 * stencil neighbours hit L1.  A store's l2 share is the part of its output
 * still in L2 when the kernel ends; the rest is written back to DRAM.
 */
#include "workloads_gen.h"

/* c[i] = a[i] + b[i], grid-stride loop: for (i = tid; i < n; i += stride).
 * Three arrays of 10.5 MB stream through the 6 MB L2: at the end it holds the
 * last 6 MB touched, a third of them c's, so 2 MB of c's 10.5 MB (0.2) stay
 * and the rest is written back. */
static const char vecadd_src[] =
	"MOV R1, c[0x0][0x28]\n"
	"S2R R0, SR_CTAID.X\n"
	"S2R R3, SR_TID.X\n"
	"IMAD R0, R0, c[0x0][0x0], R3\n"
	"MOV R9, c[0x0][0x0]\n"
	"IMAD R9, R9, c[0x0][0xc], RZ          // stride = blockDim * gridDim\n"
	"MOV R8, 0x4\n"
	"L_loop:\n"
	"IMAD.WIDE R2, R0, R8, c[0x0][0x160]\n"
	"IMAD.WIDE R4, R0, R8, c[0x0][0x168]\n"
	"LDG.E.SYS R2, [R2.64] {l2=0.08}\n"
	"LDG.E.SYS R5, [R4.64] {l2=0.08}\n"
	"IMAD.WIDE R6, R0, R8, c[0x0][0x170]\n"
	"IADD3 R0, R0, R9, RZ\n"
	"ISETP.GE.AND P0, PT, R0, c[0x0][0x178], PT\n"
	"FADD R11, R2, R5\n"
	"STG.E.SYS [R6.64], R11 {l2=0.2}\n"
	"@!P0 BRA L_loop {loop=fixed:4}\n"
	"EXIT\n";

/* SGEMM C = A*B, 64x64 tile per CTA of 256 threads, 4x4 outputs per thread
 * (16 accumulators R0..R15), K-tile of 8 staged through shared memory:
 *   for (k0 = 0; k0 < K; k0 += 8) {
 *     As[..] = A[..]; Bs[..] = B[..]; __syncthreads();
 *     for (k = 0; k < 8; k++) { a = As[k][ty*4..]; b = Bs[k][tx*4..]; c[i][j] += a[i]*b[j]; }
 *     __syncthreads(); }
 * The inner k loop is fully unrolled (LDS.128 pairs then 16 FFMAs), as nvcc does. */
#define SG_K(ka, kb)                                                                      \
	"LDS.U.128 R48, [R46+" ka "]\n"                                                  \
	"LDS.U.128 R52, [R47+" kb "]\n"                                                  \
	"FFMA R0, R48, R52, R0\nFFMA R1, R48, R53, R1\nFFMA R2, R48, R54, R2\nFFMA R3, R48, R55, R3\n" \
	"FFMA R4, R49, R52, R4\nFFMA R5, R49, R53, R5\nFFMA R6, R49, R54, R6\nFFMA R7, R49, R55, R7\n" \
	"FFMA R8, R50, R52, R8\nFFMA R9, R50, R53, R9\nFFMA R10, R50, R54, R10\nFFMA R11, R50, R55, R11\n" \
	"FFMA R12, R51, R52, R12\nFFMA R13, R51, R53, R13\nFFMA R14, R51, R54, R14\nFFMA R15, R51, R55, R15\n"
static const char sgemm_src[] =
	"MOV R1, c[0x0][0x28]\n"
	"S2R R56, SR_TID.X\n"
	"S2R R57, SR_CTAID.X\n"
	"S2R R58, SR_CTAID.Y\n"
	"CS2R R0, SRZ\nCS2R R2, SRZ\nCS2R R4, SRZ\nCS2R R6, SRZ\n"
	"CS2R R8, SRZ\nCS2R R10, SRZ\nCS2R R12, SRZ\nCS2R R14, SRZ\n"
	"SHF.R.U32.HI R59, RZ, 0x4, R56          // ty\n"
	"LOP3.LUT R60, R56, 0xf, RZ, 0xc0, !PT   // tx\n"
	"LEA R61, R58, R59, 0x6\n"
	"LEA R62, R57, R60, 0x6\n"
	"IMAD R36, R61, c[0x0][0x178], RZ\n"
	"IMAD.WIDE R36, R36, 0x4, c[0x0][0x160]  // &A[row][0]\n"
	"IMAD.WIDE R38, R62, 0x4, c[0x0][0x168]  // &B[0][col]\n"
	"SHF.L.U32 R44, R56, 0x3, RZ             // As store offset\n"
	"IADD3 R45, R44, 0x800, RZ               // Bs store offset\n"
	"SHF.L.U32 R46, R59, 0x4, RZ             // As read offset\n"
	"LEA R47, R60, 0x800, 0x4                // Bs read offset\n"
	"MOV R34, RZ\n"
	"L_k:\n"
	"LDG.E.64.SYS R40, [R36.64] {l1=0.05 l2=0.75}\n"
	"LDG.E.64.SYS R42, [R38.64] {l1=0.05 l2=0.75}\n"
	"IADD3 R36, P1, R36, 0x20, RZ\n"
	"IADD3.X R37, RZ, R37, RZ, P1, !PT\n"
	"IADD3 R38, P2, R38, c[0x0][0x180], RZ    // next 8 rows of B\n"
	"IADD3.X R39, RZ, R39, RZ, P2, !PT\n"
	"IADD3 R34, R34, 0x8, RZ\n"
	"STS.64 [R44], R40\n"
	"STS.64 [R45], R42\n"
	"BAR.SYNC 0x0\n"
	SG_K("0x0", "0x0") SG_K("0x100", "0x100") SG_K("0x200", "0x200") SG_K("0x300", "0x300")
	SG_K("0x400", "0x400") SG_K("0x500", "0x500") SG_K("0x600", "0x600") SG_K("0x700", "0x700")
	"ISETP.GE.AND P0, PT, R34, c[0x0][0x17c], PT\n"
	"BAR.SYNC 0x0\n"
	"@!P0 BRA L_k {loop=fixed:8}\n"
	"IMAD R32, R61, c[0x0][0x17c], R62\n"
	"IMAD.WIDE R32, R32, 0x4, c[0x0][0x170]\n"
	"STG.E.128.SYS [R32.64], R0 {l2=1}\n"
	"STG.E.128.SYS [R32.64+0x1000], R4 {l2=1}\n"
	"STG.E.128.SYS [R32.64+0x2000], R8 {l2=1}\n"
	"STG.E.128.SYS [R32.64+0x3000], R12 {l2=1}\n"
	"EXIT\n";

/* Tree reduction (CUDA samples reduce2 with a grid-stride first pass):
 *   for (i = gid; i < n; i += stride) sum += in[i];
 *   sdata[tid] = sum; __syncthreads();
 *   for (s = blockDim.x / 2; s > 0; s >>= 1) { if (tid < s) sdata[tid] += sdata[tid + s]; __syncthreads(); }
 *   if (tid == 0) out[blockIdx.x] = sdata[0];
 * Active masks shrink with s: half the warps drop out each step, then lanes. */
static const char reduce_src[] =
	"MOV R1, c[0x0][0x28]\n"
	"S2R R0, SR_TID.X\n"
	"S2R R2, SR_CTAID.X\n"
	"IMAD R3, R2, c[0x0][0x0], R0\n"
	"MOV R10, c[0x0][0x0]\n"
	"IMAD R10, R10, c[0x0][0xc], RZ\n"
	"MOV R7, RZ\n"
	"SHF.L.U32 R9, R0, 0x2, RZ\n"
	"L_acc:\n"
	"IMAD.WIDE R4, R3, 0x4, c[0x0][0x160]\n"
	"LDG.E.SYS R6, [R4.64] {l2=0.05}\n"
	"IADD3 R3, R3, R10, RZ\n"
	"ISETP.GE.AND P0, PT, R3, c[0x0][0x170], PT\n"
	"FADD R7, R7, R6\n"
	"@!P0 BRA L_acc {loop=fixed:12}\n"
	"STS [R9], R7\n"
	"BAR.SYNC 0x0\n"
	"MOV R8, c[0x0][0x0]\n"
	"L_tree:\n"
	"SHF.R.U32.HI R8, RZ, 0x1, R8\n"
	"ISETP.GE.U32.AND P1, PT, R0, R8, PT\n"
	"@P1 BRA L_skip {tree}\n"
	"LEA R11, R8, R9, 0x2\n"
	"LDS.U.32 R12, [R11]\n"
	"LDS.U.32 R13, [R9]\n"
	"FADD R13, R13, R12\n"
	"STS [R9], R13\n"
	"L_skip:\n"
	"BAR.SYNC 0x0\n"
	"ISETP.GT.U32.AND P0, PT, R8, 0x1, PT\n"
	"@P0 BRA L_tree {loop=tree}\n"
	"ISETP.NE.AND P0, PT, R0, RZ, PT\n"
	"@P0 BRA L_end {mask=0x1 warp0}\n"
	"LDS.U.32 R5, [RZ]\n"
	"IMAD.WIDE R2, R2, 0x4, c[0x0][0x168]\n"
	"STG.E.SYS [R2.64], R5 {l2=1}\n"
	"L_end:\n"
	"EXIT\n";

/* 2-D 5-point Jacobi step, 32x8 tile per CTA, each thread marching down 8 rows
 * with the up/centre/down values in registers and the row staged in shared
 * memory for the left/right neighbours; halo lanes (0 and 31) load an extra
 * column:
 *   for (r = 0; r < 8; r++) { down = u[y+1][x]; s[tx] = ctr; if (edge) s[halo] = u[y][x+-1];
 *     __syncthreads(); out[y][x] = ctr + k*(up + down + s[tx-1] + s[tx+1] - 4*ctr);
 *     __syncthreads(); up = ctr; ctr = down; } */
static const char stencil_src[] =
	"MOV R1, c[0x0][0x28]\n"
	"S2R R0, SR_TID.X\n"
	"S2R R2, SR_TID.Y\n"
	"S2R R3, SR_CTAID.X\n"
	"S2R R4, SR_CTAID.Y\n"
	"LEA R5, R3, R0, 0x5\n"
	"IMAD R4, R4, 0x80, R2\n"
	"IMAD R6, R4, c[0x0][0x170], R5          // y*pitch + x\n"
	"IMAD.WIDE R12, R6, 0x4, c[0x0][0x160]   // &u[y][x]\n"
	"IMAD.WIDE R18, R6, 0x4, c[0x0][0x168]   // &out[y][x]\n"
	"IMAD R20, R2, 0x88, RZ\n"
	"LEA R16, R0, R20, 0x2\n"
	"IADD3 R16, R16, 0x4, RZ                 // s[ty][tx+1]\n"
	"MOV R22, c[0x0][0x170]\n"
	"SHF.L.U32 R22, R22, 0x2, RZ             // pitch in bytes\n"
	"LDG.E.SYS R8, [R12.64+-0x4000] {l1=0.3 l2=0.5}\n"
	"LDG.E.SYS R9, [R12.64] {l1=0.3 l2=0.5}\n"
	"MOV R21, RZ\n"
	"L_row:\n"
	"IADD3 R12, P2, R12, R22, RZ\n"
	"IADD3.X R13, RZ, R13, RZ, P2, !PT\n"
	"LDG.E.SYS R10, [R12.64] {l1=0.15 l2=0.6}\n"
	"STS [R16], R9\n"
	"ISETP.NE.AND P1, PT, R0, 0x0, PT\n"
	"@P1 BRA L_nohalo {mask=0x80000001}\n"
	"LDG.E.SYS R23, [R12.64+0x80] {l1=0.5 l2=0.45}\n"
	"STS [R16+0x80], R23\n"
	"L_nohalo:\n"
	"BAR.SYNC 0x0\n"
	"LDS.U.32 R11, [R16+-0x4]\n"
	"LDS.U.32 R14, [R16+0x4]\n"
	"FADD R15, R8, R10\n"
	"FADD R17, R11, R14\n"
	"FADD R15, R15, R17\n"
	"FFMA R15, R9, -4, R15\n"
	"FFMA R17, R15, c[0x0][0x174], R9\n"
	"STG.E.SYS [R18.64], R17 {l2=1}\n"
	"BAR.SYNC 0x0\n"
	"MOV R8, R9\n"
	"MOV R9, R10\n"
	"IADD3 R18, P3, R18, R22, RZ\n"
	"IADD3.X R19, RZ, R19, RZ, P3, !PT\n"
	"IADD3 R21, R21, 0x1, RZ\n"
	"ISETP.LT.AND P0, PT, R21, 0x8, PT\n"
	"@P0 BRA L_row {loop=fixed:8}\n"
	"EXIT\n";

/* BFS frontier expansion (Rodinia bfs Kernel): an irregular gather.
 *   if (tid < n && mask[tid]) { mask[tid] = false;
 *     for (i = nodes[tid].start; i < nodes[tid].start + nodes[tid].deg; i++) {
 *       id = edges[i];                       // gather
 *       if (!visited[id]) { cost[id] = cost[tid] + 1; updating[id] = true; } } }
 * The frontier test diverges (a partial mask), each lane loops over its own
 * degree (lanes drop out as their lists end), and visited[edges[i]] is a load
 * whose address comes from a load. */
static const char bfs_src[] =
	"MOV R1, c[0x0][0x28]\n"
	"S2R R0, SR_CTAID.X\n"
	"S2R R3, SR_TID.X\n"
	"IMAD R0, R0, c[0x0][0x0], R3\n"
	"IMAD.WIDE R2, R0, 0x1, c[0x0][0x168]\n"
	"LDG.E.U8.SYS R4, [R2.64] {l2=0.3}\n"
	"ISETP.EQ.AND P0, PT, R4, RZ, PT\n"
	"@P0 BRA L_end {skip=0.3 div=0.6}\n"
	"STG.E.U8.SYS [R2.64], RZ {l2=1}\n"
	"IMAD.WIDE R6, R0, 0x8, c[0x0][0x160]\n"
	"LDG.E.64.SYS R6, [R6.64] {l2=0.4}\n"
	"IMAD.WIDE R10, R0, 0x4, c[0x0][0x178]\n"
	"LDG.E.SYS R12, [R10.64] {l1=0.2 l2=0.5}\n"
	"MOV R21, 0x1\n"
	"IADD3 R9, R6, R7, RZ\n"
	"IADD3 R13, R12, 0x1, RZ\n"
	"L_edge:\n"
	"IMAD.WIDE R14, R6, 0x4, c[0x0][0x170]\n"
	"LDG.E.SYS R16, [R14.64] {l1=0.25 l2=0.5}\n"
	"IMAD.WIDE R18, R16, 0x1, c[0x0][0x180]\n"
	"LDG.E.U8.SYS R20, [R18.64] {l1=0.1 l2=0.45}\n"
	"IADD3 R6, R6, 0x1, RZ\n"
	"ISETP.NE.AND P2, PT, R20, RZ, PT\n"
	"@P2 BRA L_next {skip=0.35 div=0.5}\n"
	"IMAD.WIDE R22, R16, 0x4, c[0x0][0x178]\n"
	"STG.E.SYS [R22.64], R13 {l2=1}\n"
	"IMAD.WIDE R24, R16, 0x1, c[0x0][0x188]\n"
	"STG.E.U8.SYS [R24.64], R21 {l2=1}\n"
	"L_next:\n"
	"ISETP.LT.AND P1, PT, R6, R9, PT\n"
	"@P1 BRA L_edge {loop=lanes:5}\n"
	"L_end:\n"
	"EXIT\n";

/* RNN / GEMV-like layer step: each thread owns 8 output rows (8 independent
 * accumulators R0..R7) and streams their weights, 4 k-values per iteration,
 * against the activations staged in shared memory; then h = tanh(acc) via
 * MUFU.EX2/MUFU.RCP.  32 FFMAs per iteration in 4 groups of 8 mutually
 * independent ones: a long FMA stream with high ILP.
 *   for (k = 0; k < K; k += 4) { x = xs[k..k+3]; for (r..8) for (j..4) acc[r] += W[r][k+j]*x[j]; } */
#define RNN_J(a, b, c, d, e, f, g, h, x)                                                       \
	"FFMA R0, " a ", " x ", R0\nFFMA R1, " b ", " x ", R1\nFFMA R2, " c ", " x ", R2\n"         \
	"FFMA R3, " d ", " x ", R3\nFFMA R4, " e ", " x ", R4\nFFMA R5, " f ", " x ", R5\n"         \
	"FFMA R6, " g ", " x ", R6\nFFMA R7, " h ", " x ", R7\n"
#define RNN_ACT(r)                                                                     \
	"FMUL R64, R" r ", -2.8853900432586669922\n"                                   \
	"MUFU.EX2 R64, R64\n"                                                          \
	"FADD R64, R64, 1\n"                                                           \
	"MUFU.RCP R64, R64\n"                                                          \
	"FFMA R" r ", R64, 2, -1\n"
static const char rnn_src[] =
	"MOV R1, c[0x0][0x28]\n"
	"S2R R8, SR_TID.X\n"
	"S2R R9, SR_CTAID.X\n"
	"CS2R R0, SRZ\nCS2R R2, SRZ\nCS2R R4, SRZ\nCS2R R6, SRZ\n"
	"LEA R10, R9, R8, 0x7\n"
	"SHF.L.U32 R10, R10, 0x3, RZ             // first of 8 rows\n"
	"IMAD R11, R10, c[0x0][0x170], RZ\n"
	"IMAD.WIDE R12, R11, 0x4, c[0x0][0x160]  // &W[row][0]\n"
	"MOV R14, c[0x0][0x170]\n"
	"SHF.L.U32 R14, R14, 0x2, RZ             // row pitch\n"
	"MOV R15, RZ                             // shared x offset\n"
	"MOV R16, RZ\n"
	"L_k:\n"
	"LDS.U.128 R20, [R15]\n"
	"LDG.E.128.CONSTANT.SYS R32, [R12.64] {l1=0.55 l2=0.4}\n"
	"IMAD.WIDE R24, R14, 0x1, R12\n"
	"LDG.E.128.CONSTANT.SYS R36, [R24.64] {l1=0.55 l2=0.4}\n"
	"IMAD.WIDE R26, R14, 0x2, R12\n"
	"LDG.E.128.CONSTANT.SYS R40, [R26.64] {l1=0.55 l2=0.4}\n"
	"IMAD.WIDE R28, R14, 0x3, R12\n"
	"LDG.E.128.CONSTANT.SYS R44, [R28.64] {l1=0.55 l2=0.4}\n"
	"LDG.E.128.CONSTANT.SYS R48, [R24.64+0x4000] {l1=0.55 l2=0.4}\n"
	"LDG.E.128.CONSTANT.SYS R52, [R26.64+0x4000] {l1=0.55 l2=0.4}\n"
	"LDG.E.128.CONSTANT.SYS R56, [R28.64+0x4000] {l1=0.55 l2=0.4}\n"
	"LDG.E.128.CONSTANT.SYS R60, [R12.64+0x4000] {l1=0.55 l2=0.4}\n"
	"IADD3 R12, P1, R12, 0x10, RZ\n"
	"IADD3.X R13, RZ, R13, RZ, P1, !PT\n"
	"IADD3 R15, R15, 0x10, RZ\n"
	"IADD3 R16, R16, 0x4, RZ\n"
	RNN_J("R32", "R36", "R40", "R44", "R48", "R52", "R56", "R60", "R20")
	RNN_J("R33", "R37", "R41", "R45", "R49", "R53", "R57", "R61", "R21")
	RNN_J("R34", "R38", "R42", "R46", "R50", "R54", "R58", "R62", "R22")
	RNN_J("R35", "R39", "R43", "R47", "R51", "R55", "R59", "R63", "R23")
	"ISETP.LT.AND P0, PT, R16, c[0x0][0x170], PT\n"
	"@P0 BRA L_k {loop=fixed:12}\n"
	RNN_ACT("0") RNN_ACT("1") RNN_ACT("2") RNN_ACT("3") RNN_ACT("4") RNN_ACT("5") RNN_ACT("6") RNN_ACT("7")
	"IMAD.WIDE R24, R10, 0x4, c[0x0][0x168]\n"
	"STG.E.128.SYS [R24.64], R0 {l2=1}\n"
	"STG.E.128.SYS [R24.64+0x10], R4 {l2=1}\n"
	"EXIT\n";

/* Launch shapes: grid, block, registers per thread, shared memory per CTA. */
const struct wl_kernel_src wl_kernels[] = {
	{"vecadd", vecadd_src, {2560, 1, 1}, {256, 1, 1}, 12, 0},
	{"sgemm", sgemm_src, {16, 20, 1}, {256, 1, 1}, 64, 4096},
	{"reduce", reduce_src, {640, 1, 1}, {256, 1, 1}, 16, 1024},
	{"stencil", stencil_src, {32, 20, 1}, {32, 8, 1}, 32, 1088},
	{"bfs", bfs_src, {1024, 1, 1}, {256, 1, 1}, 28, 0},
	{"rnn", rnn_src, {640, 1, 1}, {128, 1, 1}, 72, 1536},
};
const size_t wl_kernel_count = IW_ARRAY_LEN(wl_kernels);
