#!/usr/bin/env python3
"""Turn week 57's solution paged_attn.cu into host C++ for the CPU emulator:
the inline-asm ex2 becomes exp2f, <<<grid, block>>> launches become emu_launch
calls, cudaGetLastError the emulator's; PAGED_STAGES's three cp.async asm lines
and its extern __shared__ ring become the emulator's. Everything else is the
file as it is."""
import re, sys
src = open(sys.argv[1]).read()
n = 0
src, k = re.subn(r'asm\("ex2\.approx\.ftz\.f32 %0, %1;\\n" : "=f"\(y\) : "f"\(x\)\);', 'y = exp2f(x);', src)
assert k == 1, 'the ex2 asm line'
# PAGED_STAGES's cp.async: a copy recorded at issue, done at the wait that
# completes its group (emu_rt.cc); the dynamic shared memory: the emulator's.
for pat, rep in ((r'asm volatile\("cp\.async\.cg\.shared\.global \[%0\], \[%1\], 16;" ::"r"\(\(unsigned\)__cvta_generic_to_shared\(dst\)\), "l"\(src\) : "memory"\);', 'emu_cp_async(dst, src);'),
                 (r'asm volatile\("cp\.async\.commit_group;" ::: "memory"\);', 'emu_cp_commit();'),
                 (r'asm volatile\("cp\.async\.wait_group %0;" ::"n"\(N\) : "memory"\);', 'emu_cp_wait(N);'),
                 (r'extern __shared__ __align__\(16\) uint4 (\w+)\[\];', r'uint4 *\1 = (uint4 *)emu_dyn_smem;')):
    src, k = re.subn(pat, rep, src)
    assert k == 1, 'PAGED_STAGES line %s: found %d' % (rep, k)
def launch(m):
    return 'emu_launch(%s, [&] { %s(%s); })' % (m.group(2), m.group(1), m.group(3))
src, k = re.subn(r'([A-Za-z_][\w]*(?:<[^<>]*>)?)<<<(.*?)>>>\((.*?)\)(?=;)', launch, src, flags=re.S)
assert k == 3, 'three launches (the kernel, with PAGED_STAGES, the merge), found %d' % k
sys.stdout.write('#include "emu_shim.h"\n' + src)
