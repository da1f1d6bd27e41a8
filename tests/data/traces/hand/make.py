#!/usr/bin/env python3
"""Write the hand-made Accel-Sim trace fixtures (one folder per tracer version
and edge case).  Every variant encodes the same kernel, so a reader must give
the same counts, mix and footprint for all of them; only the header's tracer
version and the line syntax differ.  Run from this folder; then
`xz -k -f` makes the compressed copies (see README.md)."""
import os

GRID, BLOCK = (2, 1, 1), (64, 1, 1)

def lanes(mask):
    return [i for i in range(32) if mask >> i & 1]

# One warp program: (pc, mask, dsts, opcode, srcs, width, addresses or None)
def warp0(cta):
    g = 0x7f0000001000 + cta * 0x1000
    full = 0xffffffff
    half = 0x0000ffff
    return [
        (0x000, full, ["R1"], "MOV", ["R255"], 0, None),
        (0x010, full, ["R2"], "S2R", [], 0, None),
        (0x020, full, ["R4"], "IMAD.WIDE", ["R2", "R255", "R6"], 0, None),
        # 32 lanes x 8 bytes, contiguous: 8 sectors
        (0x030, full, ["R8"], "LDG.E.64.SYS", ["R4"], 8, [g + 8 * i for i in range(32)]),
        # shared store, 8-byte lane stride with 4-byte words: 2-way bank conflict
        (0x040, full, [], "STS", ["R255", "R8"], 4, [8 * i for i in range(32)]),
        (0x050, full, [], "ISETP.GE.AND", ["R2", "R1"], 0, None),
        (0x060, half, [], "BRA", [], 0, None),  # taken: next is 0x090
        (0x090, half, ["R10"], "FADD", ["R8", "R9"], 0, None),
        # irregular addresses (mode 0 before version 3, mode 2 after)
        (0x0a0, half, [], "STG.E.SYS", ["R4", "R10"], 4, [g + 0x800 + 4 * i + (64 if i % 3 == 0 else 0) for i in range(16)]),
        (0x0b0, 0, [], "EXIT", [], 0, None),  # predicated off
        (0x0c0, full, ["R12"], "FOOBAR.X", ["R1"], 0, None),  # not in the SASS table
        (0x0d0, full, [], "EXIT", [], 0, None),
    ]

def addr_field(addrs, mode):
    if mode == 1:
        stride = addrs[1] - addrs[0]
        return "1 0x%x %d" % (addrs[0], stride)
    if mode == 2:
        deltas = [addrs[i] - addrs[i - 1] for i in range(1, len(addrs))]
        return "2 0x%x %s" % (addrs[0], " ".join(str(d) for d in deltas))
    return "0 " + " ".join("0x%016x" % a for a in addrs)

def regular(addrs):
    return len(addrs) > 1 and len({addrs[i] - addrs[i - 1] for i in range(1, len(addrs))}) == 1

def line(version, lineinfo, cta, warp, ins, lineno):
    pc, mask, dsts, op, srcs, width, addrs = ins
    f = []
    if version < 3:
        f += [str(cta), "0", "0", str(warp)]
    if lineinfo:
        f.append(str(lineno))
    f += ["%04x" % pc, "%08x" % mask, str(len(dsts))] + dsts + [op, str(len(srcs))] + srcs + [str(width)]
    if width:
        mode = 1 if regular(addrs) else (2 if version >= 3 else 0)
        f.append(addr_field(addrs, mode))
    if version >= 5:
        f.append("0")
    return " ".join(f) + " "

def kernel(version, lineinfo):
    h = ["-kernel name = _Z4handPfS_i", "-kernel id = 1", "-grid dim = (%d,%d,%d)" % GRID,
         "-block dim = (%d,%d,%d)" % BLOCK, "-shmem = 512", "-nregs = 16", "-binary version = 70",
         "-cuda stream id = 0", "-shmem base_addr = 0x00007f0050000000",
         "-local mem base_addr = 0x00007f0040000000", "-nvbit version = 1.5.5"]
    if version > 0:
        h.append("-accelsim tracer version = %d" % version)
    if version >= 4:
        h.append("-enable lineinfo = %d" % lineinfo)
    h += ["", "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]", "", ""]
    out = h[:]
    for cta in range(GRID[0]):
        out += ["#BEGIN_TB", "", "thread block = %d,0,0" % cta, ""]
        prog = warp0(cta)
        # CTA 0: warp 1 has no instructions; CTA 1: warps listed in reverse order
        warps = [(0, prog), (1, [])] if cta == 0 else [(1, prog[:2] + prog[-1:]), (0, prog)]
        for w, p in warps:
            out += ["warp = %d" % w, "insts = %d" % len(p)]
            for i, ins in enumerate(p):
                out.append(line(version, lineinfo, cta, w, ins, 10 + i))
                if i == 3:
                    out.append("")  # blank lines may appear anywhere
            out.append("")
        out += ["#END_TB", ""]
    return "\n".join(out) + "\n"

VARIANTS = {
    "v0": (0, 0), "v1": (1, 0), "v2": (2, 0), "v3": (3, 0),
    "v4": (4, 0), "v4-lineinfo": (4, 1), "v5": (5, 0), "v5-lineinfo": (5, 1),
}

for name, (v, li) in VARIANTS.items():
    os.makedirs(name, exist_ok=True)
    with open(os.path.join(name, "kernel-1.traceg"), "w") as f:
        f.write(kernel(v, li))
    with open(os.path.join(name, "kernelslist.g"), "w") as f:
        f.write("MemcpyHtoD,0x00007f0000001000,8192\nkernel-1.traceg\n")
