#!/usr/bin/env python3
"""Turn week 58's solution w4a16_decode.cu into host C++ for the CPU
emulator (README.md): each inline-asm statement becomes a call into the
emulator (lop3 -> C, mma.sync -> a warp-wide exchange, %laneid, createpolicy,
cp.async.bulk -> a queued copy completing on an emulated mbarrier; the
cp.async of variants 0 and 3 abort, they are not emulated), the kernel's
sm_90 guard is opened, the dynamic shared ring becomes a static array the
emulator knows, and the <<<grid, block, smem>>> launches become emu_launch
calls. Everything else is the file as it is."""
import re, sys
src = open(sys.argv[1]).read()

def sub1(pat, rep, what, count=1, flags=0):
    global src
    src, k = re.subn(pat, rep, src, flags=flags)
    assert k == count, '%s: found %d, expected %d' % (what, k, count)

# the asm statements, by what they do
def asm_rep(m):
    t = m.group(0)
    if 'lop3.b32' in t: return 'r = (w & 0x000f000fu) | 0x64006400u;'
    if 'mma.sync.aligned.m16n8k16' in t: return 'emu_mma(c, a, b0, b1);'
    if '%%laneid' in t: return 'l = emu_cur->lane;'
    if 'createpolicy' in t: return 'p = 0;'
    if 'cp.async.bulk.shared::cluster.global' in t:
        return 'emu_bulk(dst, src, bytes, bar);'
    if 'cp.async' in t: return 'emu_unemulated("cp.async");'
    raise SystemExit('gen.py: an asm statement it does not know: ' + t[:80])
sub1(r'asm(?:\s+volatile)?\s*\((?:[^;]|;(?!\s*$))*?\);', asm_rep, 'asm statements', count=len(re.findall(r'\basm\b\s*(?:volatile\s*)?\(', src)), flags=re.M)
sub1(r'#if defined\(__CUDA_ARCH__\) && __CUDA_ARCH__ >= 900', '#if 1', 'the sm_90 guard')
sub1(r'extern __shared__ __align__\(128\) unsigned char ring\[\];[^\n]*',
     'static unsigned char ring[W58_DEC4_STAGES * DEC4_STAGE] __attribute__((aligned(128))); emu_smem(ring, sizeof ring);',
     'the ring')
sub1(r'extern __shared__ __align__\(16\) uint4 dsm\[\];', 'static uint4 dsm[1];', "variant 3's ring")
def launch(m):
    return 'emu_launch(%s, [&] { %s(%s); })' % (m.group(2), m.group(1), m.group(3))
sub1(r'([A-Za-z_][\w]*(?:<[^<>]*>)?)<<<(.*?)>>>\((.*?)\)(?=;)', launch, 'the launches', count=2, flags=re.S)
sys.stdout.write('#include "emu_shim.h"\n' + src)
