#!/usr/bin/env bash
# tests/multicast.sh — NVLink multicast stays off (common/include/wb_multicast.h):
#   - a command make runs sees the three settings off even when the caller's
#     environment and command line turn them on;
#   - no code of the workbook (C, CUDA, Python, shell, make) names
#     cuMulticastCreate, outside this check and the header that explains the rule.
# The test programs set them again themselves (tests/harness.sh checks that)
# and the grader puts them in every sandboxed run (the instructor tests check that).
. "$(dirname "$0")/lib.sh"
t_begin multicast

out=$BUILD/multicast-env.txt
rm -f "$out"
# A rule of the test's own (--eval): the Makefile holds none for it.
NCCL_NVLS_ENABLE=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=0 NVSHMEM_DISABLE_NVLS=0 \
  $MAKE -s NCCL_NVLS_ENABLE=1 TORCH_SYMM_MEM_DISABLE_MULTICAST=0 NVSHMEM_DISABLE_NVLS=0 \
  --eval "$out: FORCE ; @mkdir -p \$(@D) && echo \"\$\$NCCL_NVLS_ENABLE \$\$TORCH_SYMM_MEM_DISABLE_MULTICAST \$\$NVSHMEM_DISABLE_NVLS\" > \$@" "$out"
got=$(cat "$out" 2>/dev/null)
if [ "$got" = "0 1 1" ]; then t_pass "multicast off in every command make runs, whatever the caller set"
else t_fail "multicast off in every command make runs" "NCCL_NVLS_ENABLE TORCH_SYMM_MEM_DISABLE_MULTICAST NVSHMEM_DISABLE_NVLS = '$got', expected '0 1 1'"; fi

hits=$(grep -rlI --exclude-dir=build --exclude-dir=.deps --exclude-dir=.git --exclude-dir=.dev \
  --include='*.c' --include='*.h' --include='*.cu' --include='*.cuh' --include='*.cpp' --include='*.py' \
  --include='*.sh' --include='*.mk' --include=Makefile cuMulticastCreate . |
  grep -v -e '^./tests/multicast.sh$' -e '^./common/include/wb_multicast.h$')
if [ -z "$hits" ]; then t_pass "no workbook file calls cuMulticastCreate"
else t_fail "no workbook file calls cuMulticastCreate" "found in: $(echo $hits)"; fi

t_end
