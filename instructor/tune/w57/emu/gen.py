#!/usr/bin/env python3
"""Turn week 57's solution paged_attn.cu into host C++ for the CPU emulator:
the inline-asm ex2 becomes exp2f, <<<grid, block>>> launches become emu_launch
calls, cudaGetLastError the emulator's. Everything else is the file as it is."""
import re, sys
src = open(sys.argv[1]).read()
n = 0
src, k = re.subn(r'asm\("ex2\.approx\.ftz\.f32 %0, %1;\\n" : "=f"\(y\) : "f"\(x\)\);', 'y = exp2f(x);', src)
assert k == 1, 'the ex2 asm line'
def launch(m):
    return 'emu_launch(%s, [&] { %s(%s); })' % (m.group(2), m.group(1), m.group(3))
src, k = re.subn(r'([A-Za-z_][\w]*(?:<[^<>]*>)?)<<<(.*?)>>>\((.*?)\)(?=;)', launch, src, flags=re.S)
assert k == 2, 'two launches, found %d' % k
sys.stdout.write('#include "emu_shim.h"\n' + src)
