# mk/instructor.mk — for instructors: the student release, class grading,
# and sealing the quizzes. Included by the Makefile; a student copy has no
# instructor/ folder, and these goals say so.
#
#   make release OUT=dir [WEEKS="phase0/week01 ..."]   the student copy (instructors)
#   make grade SUBMISSIONS=dir WEEKS="phase0/week01" [GRADEBOOK=out.csv] [SEED=n] [LIMIT=s] [SECCOMP=deny|allow|log|off]
#   make grade ... SCHEDULER=slurm [PARTITION=p] [ACCOUNT=a] [QOS=q] [SBATCH="--opt ..."] [GRES=gpu:1]
#              [SLURM_WAIT=0] [REGRADE="all"|"id ..."]   the checkpoints run in a Slurm job array
#   make grade-collect GRADEBOOK=out.csv         a Slurm grading's gradebook as it stands (pending shown PENDING)
#   make grade-quiz ANSWERS_DIR=dir PHASE=0 [GRADEBOOK=out.csv]
#   make grade-fixtures                          grade the fixture class (instructor/fixtures)
#   make grade-fixtures-py                       week 43's Python fixture class, graded and checked
#   make grade-class30                           a class of 30 graded twice: time, and marks that agree
#   make quiz-seal                               authors: seal instructor/quizzes/*.txt into quizzes/
#   make instructor-test                         the instructor tools' own tests (instructor/tests/run.sh;
#                                                make test runs them too)
#
# Taking a quiz is everyone's: mk/quiz.mk.

.PHONY: grade-quiz quiz-seal release grade grade-collect grade-fixtures grade-fixtures2 grade-fixtures-py grade-class30 instructor-test
KNOWN_GOALS += grade-quiz quiz-seal release grade grade-collect grade-fixtures grade-fixtures2 grade-fixtures-py grade-class30 instructor-test

# WEEKS= as the instructor gives it (phase0/week1 is phase0/week01), checked
# when release or grade runs.
GIVEN_WEEKS = $(foreach w,$(WEEKS),$(call canon_week,$(w)))

ifneq ($(wildcard instructor/grade.c),)
# ---------------------------------------------------------------- instructors only

GRADE_BIN := $(BUILD)/instructor/grade
INSTR_TEST := $(BUILD)/instructor/test_instructor
GRADEBOOK ?= $(BUILD)/instructor/gradebook.csv
SEED ?= 20261122
LIMIT ?= 120
# The fixture classes and the class of 30 (below): 30 s a checkpoint unless LIMIT
# is given. Their hang fixture runs to the limit, twice (shared, then alone), and
# its judge gets 60 s more: at 120 the first class did not finish in 300 s (H200).
FIXTURE_LIMIT = $(if $(filter command line environment,$(origin LIMIT)),$(LIMIT),30)
JOBS ?= 8
# students whose correctness runs share the GPU at once (grade.c, step 5; instructor/README.md step 6
# has the H100 figures); 1 runs every run alone
GPU_SHARE ?= 4
abs_check := $(if $(CHECK_DIR),$(abspath $(CHECK_DIR)))
# Grading on a Slurm cluster (instructor/grade_slurm.c; instructor/README.md,
# "Grading on a Slurm cluster"): a task a student, each with GRES (empty: no
# --gres line); PARTITION, ACCOUNT, QOS and each word of SBATCH become #SBATCH
# lines of the job script, after the grader's own (so they win); SLURM_WAIT=0
# submits and returns (make grade-collect later); REGRADE grades finished
# students again; SLURM_DIR (default GRADEBOOK-slurm/) holds plans, results,
# scripts and logs, on the filesystem the nodes share.
SCHEDULER ?= local
GRES ?= gpu:1
SLURM_WAIT ?= 1
SLURM_POLL ?= 30
GRADE_SLURM_ARGS = --scheduler slurm --gres "$(GRES)" --wait $(if $(filter 0 no,$(SLURM_WAIT)),0,1) --poll $(SLURM_POLL) \
  $(if $(PARTITION),--sbatch --partition=$(PARTITION)) $(if $(ACCOUNT),--sbatch --account=$(ACCOUNT)) \
  $(if $(QOS),--sbatch --qos=$(QOS)) $(foreach o,$(SBATCH),--sbatch $(o)) $(if $(SLURM_DIR),--slurm-dir $(SLURM_DIR)) \
  $(if $(MAX_RUNNING),--max-running $(MAX_RUNNING)) $(if $(REGRADE),--regrade "$(REGRADE)")
grade_scheduler_args = $(if $(filter slurm,$(SCHEDULER)),$(GRADE_SLURM_ARGS))
# Each student's scratch copy: at most DISK_QUOTA MiB (the grader's default,
# 1024, when empty), removed once the gradebook is written unless
# KEEP_SCRATCH=1. The fixture classes keep theirs (their checks read them)
# and have 256 MiB, which their disk filler passes.
KEEP_SCRATCH ?= 0
DISK_QUOTA ?=
grade_scratch_args = --keep-scratch $(if $(filter 1 yes,$(KEEP_SCRATCH)),1,0) $(if $(DISK_QUOTA),--disk-quota $(DISK_QUOTA))
FIXTURE_SCRATCH_ARGS = --keep-scratch 1 --disk-quota $(or $(DISK_QUOTA),256)
# The sandbox's seccomp filter (instructor/sandbox.h): deny (a kill-list),
# allow (an allow-list, still to be confirmed on a GPU machine), log (the
# allow-list, calls outside it only logged: dmesg | grep type=1326), off.
SECCOMP ?= deny
# JUDGE=1, the default for local grading: weeks with a judge (JUDGED_WEEKS below;
# make judge-wNN builds one) are judged by a process without the student's code
# (instructor/README.md, "Threat model" and "The judge and the runner");
# JUDGE=0 grades them with their linked test programs, as every other week.
# A Slurm grading's tasks judge on their nodes as a local grading does.
JUDGE ?= 1
grade_judge_args = $(if $(filter 1,$(JUDGE)),--judge 1)
# ARCH as the instructor's build has it: the sandboxed builds cannot ask nvidia-smi.
# CUDNN_INCLUDE as the instructor's make finds it (mk/needs-cudnn.mk; looked up when a grade runs, not at
# every make): the sandboxed builds of the weeks that need cuDNN's headers get it, and the sandbox shows it.
GRADE_MAKE_ARGS = --make-arg NVCC=$(NVCC) --make-arg ARCH=$(ARCH) $(if $(abs_check),--make-arg CHECK_DIR=$(abs_check)) \
  $(if $(CUDNN_INCLUDE),--make-arg CUDNN_INCLUDE=$(CUDNN_INCLUDE)) --seccomp $(SECCOMP)

# The grader's sandbox (bubblewrap), unpacker (libarchive) and object
# checker: instructor/{sandbox,unpack,objcheck}.c, tested on their own by
# instructor/Makefile.sandbox. Without libarchive's headers, or without a
# working bwrap, the grading steps of instructor-test are SKIP, never PASS.
GRADE_MODS := $(BUILD)/instructor/sandbox.o $(BUILD)/instructor/unpack.o $(BUILD)/instructor/objcheck.o \
  $(BUILD)/instructor/judge.o $(BUILD)/instructor/judge_sb.o $(BUILD)/instructor/names.o
$(BUILD)/instructor/judge.o $(BUILD)/instructor/judge_sb.o: instructor/judge.h instructor/judge_msg.h instructor/sandbox.h
$(BUILD)/instructor/%.o: instructor/%.c instructor/%.h
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -Iinstructor -MMD -MP -c $< -o $@

# The grader's parts (grade.h), each its own object; grade.o holds main.
GRADE_OBJ := $(patsubst %,$(BUILD)/instructor/%.o,grade_jobs grade_class grade_build grade_objcheck grade_run grade_report grade_slurm)
# (wb_meta.h named as well: grade.h embeds its structures, and an object built before
# this rule wrote dependency files would not see a change to them)
$(BUILD)/instructor/grade.o $(GRADE_OBJ): instructor/grade.h instructor/sandbox.h instructor/objcheck.h instructor/judge.h instructor/judge_sb.h \
  common/include/wb_meta.h
$(BUILD)/quizzes/quiz.o: CFLAGS += -DQUIZ_GRADE
$(BUILD)/instructor/quiz_class.o $(BUILD)/instructor/test_grade.o $(BUILD)/instructor/test_quiz.o: CFLAGS += -Iquizzes
# the grader hashes the judge's runner with the quizzes' SHA-256 (grade_build.c, keep_judge_runner)
$(BUILD)/instructor/grade_build.o: CFLAGS += -Iquizzes
$(BUILD)/instructor/grade_build.o: quizzes/sha256.h

$(GRADE_BIN): $(BUILD)/instructor/grade.o $(GRADE_OBJ) $(BUILD)/quizzes/sha256.o $(BUILD)/instructor/gradebook.o $(BUILD)/common/src/wb_meta.o $(BUILD)/common/src/wb_results.o $(BUILD)/common/src/wb_file.o $(BUILD)/common/src/wb_multicast.o $(BUILD)/common/src/wb_stats.o $(GRADE_MODS)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $@")
	$(Q)$(CC) $(CFLAGS) -o $@ $^ -lm -larchive

# The release's leak check: no line of a solution's code in the student copy.
LEAKCHECK := $(BUILD)/instructor/leakcheck
$(LEAKCHECK): instructor/leakcheck.c $(BUILD)/common/src/wb_file.o
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $@")
	$(Q)$(CC) $(CFLAGS) -o $@ $^

# The Check tests link every object of the grader and the quiz but their mains.
INSTR_TEST_OBJ := $(patsubst %,$(BUILD)/instructor/%.o,test_instructor test_grade test_quiz)
$(INSTR_TEST): $(INSTR_TEST_OBJ) $(GRADE_OBJ) $(QUIZ_OBJ) $(QUIZ_CLASS_OBJ) $(HOST_OBJ) $(GRADE_MODS)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $@")
	$(Q)$(CC) $(CFLAGS) -o $@ $^ -lm -larchive -ldl $(LDCHECK) -lpthread -lrt -lm

quiz-seal: $(QUIZ_BIN)
	$(Q)for s in instructor/quizzes/*.txt; do $(QUIZ_BIN) seal $$s quizzes/$$(basename $$s) || exit 1; done

# Graded from the source: a graded quiz's sealed copy holds no keys.
quiz_source = instructor/quizzes/$(notdir $(quiz_file))

grade-quiz: $(QUIZ_BIN)
	@[ -n "$(PHASE)" ] && [ -f "$(quiz_source)" ] && [ -d "$(ANSWERS_DIR)" ] || { echo ">>> make grade-quiz ANSWERS_DIR=dir PHASE=0 [GRADEBOOK=out.csv]"; exit 2; }
	@mkdir -p $(dir $(GRADEBOOK))
	$(Q)$(QUIZ_BIN) grade $(quiz_source) $(ANSWERS_DIR) $(GRADEBOOK)

release: $(WB) $(LEAKCHECK)
	@[ -n "$(OUT)" ] || { echo ">>> say where: make release OUT=dir [WEEKS=\"phase0/week01 ...\"]"; exit 2; }
	$(if $(filter command line,$(origin WEEKS)),$(call check_weeks,$(GIVEN_WEEKS)))
	$(Q)bash instructor/release.sh "$(OUT)" $(if $(filter command line,$(origin WEEKS)),$(GIVEN_WEEKS))

# The instructor's build of the graded weeks: libwb, wb, test objects; each
# student's scratch copy starts from these.
# A week without a C test (Phase 7's Python-only weeks) has no test program to build.
grade_prebuild = $(MAKE) $(LIBWB) $(WB) $(GPU_PROBE) $(GRADE_BIN) $(foreach w,$(1),$(if $(call has_c_test,$(w)),$(BUILD)/$(w)/starter/test)) $(if $(filter 1,$(JUDGE)),$(foreach w,$(filter $(JUDGED_WEEKS),$(1)),$(call judge_target,$(w))))

grade: $(WB)
	@[ -d "$(SUBMISSIONS)" ] && [ -n "$(WEEKS)" ] && [ "$(origin WEEKS)" = "command line" ] || { echo ">>> make grade SUBMISSIONS=dir WEEKS=\"phase0/week01\" [GRADEBOOK=out.csv] [SEED=n] [LIMIT=seconds] [SCHEDULER=slurm]"; exit 2; }
	@case "$(SCHEDULER)" in local|slurm) ;; *) echo ">>> SCHEDULER=$(SCHEDULER): local (this host) or slurm (a job array)"; exit 2;; esac
	$(call check_weeks,$(GIVEN_WEEKS))
	+$(Q)$(call grade_prebuild,$(GIVEN_WEEKS))
	$(if $(filter 1,$(JUDGE)),$(if $(filter $(JUDGED_WEEKS),$(GIVEN_WEEKS)),$(Q)$(if $(filter slurm,$(SCHEDULER)),JUDGE_CALIBRATE_SLURM=1 )bash instructor/judge_calibrate.sh $(BUILD) $(filter $(JUDGED_WEEKS),$(GIVEN_WEEKS))))
	@mkdir -p $(dir $(GRADEBOOK))
	$(Q)$(GRADE_BIN) --root . --submissions $(SUBMISSIONS) --weeks "$(GIVEN_WEEKS)" --gradebook $(GRADEBOOK) \
	  --seed $(SEED) --limit $(LIMIT) --jobs $(JOBS) --gpu-share $(GPU_SHARE) $(GRADE_MAKE_ARGS) $(grade_scheduler_args) \
	  $(grade_scratch_args) $(grade_judge_args)

# A Slurm grading's gradebook as it stands: results in, tasks still with
# Slurm PENDING, a task that ended without a result re-queued once.
grade-collect: $(GRADE_BIN)
	$(Q)$(GRADE_BIN) --collect $(GRADEBOOK) $(if $(SLURM_DIR),--slurm-dir $(SLURM_DIR))

FIXTURE_WEEK := phase0/week01
FIXTURE_OUT  := $(BUILD)/instructor/fixtures

# GRADE_OK_RC=3: grading without a GPU (every GPU checkpoint SKIP, grade
# exits 3) is what the test without a GPU expects.
GRADE_OK_RC ?= 0
grade-fixtures:
	+$(Q)$(call grade_prebuild,$(FIXTURE_WEEK))
	@rm -rf $(FIXTURE_OUT) && mkdir -p $(FIXTURE_OUT)/class && chmod 755 $(FIXTURE_OUT)
	@cp -R instructor/fixtures/class/. $(FIXTURE_OUT)/class/
	@tar -czf $(FIXTURE_OUT)/class/archived.tar.gz -C instructor/fixtures/archived .
	@bash instructor/fixtures/hostile.sh $(FIXTURE_OUT)/class $(FIXTURE_OUT)/dupclass
	$(Q)$(GRADE_BIN) --root . --submissions $(FIXTURE_OUT)/class --weeks "$(FIXTURE_WEEK)" \
	  --gradebook $(FIXTURE_OUT)/gradebook.csv --scratch $(FIXTURE_OUT)/scratch --seed $(SEED) --limit $(FIXTURE_LIMIT) \
	  --jobs $(JOBS) --gpu-share $(GPU_SHARE) $(GRADE_MAKE_ARGS) $(FIXTURE_SCRATCH_ARGS) $(grade_judge_args) || [ $$? = $(GRADE_OK_RC) ]

# The second fixture class: weeks 07 and 22 (a CUB and a cuBLAS yardstick).
FIXTURE2_WEEKS := phase1/week07 phase5/week22
FIXTURE2_OUT   := $(BUILD)/instructor/fixtures2
grade-fixtures2:
	+$(Q)$(call grade_prebuild,$(FIXTURE2_WEEKS))
	@rm -rf $(FIXTURE2_OUT) && mkdir -p $(FIXTURE2_OUT) && chmod 755 $(FIXTURE2_OUT)
	@bash instructor/fixtures/class2.sh $(FIXTURE2_OUT)/class
	$(Q)$(GRADE_BIN) --root . --submissions $(FIXTURE2_OUT)/class --weeks "$(FIXTURE2_WEEKS)" \
	  --gradebook $(FIXTURE2_OUT)/gradebook.csv --scratch $(FIXTURE2_OUT)/scratch --seed $(SEED) --limit $(FIXTURE_LIMIT) \
	  --jobs $(JOBS) --gpu-share $(GPU_SHARE) $(GRADE_MAKE_ARGS) $(FIXTURE_SCRATCH_ARGS) $(grade_judge_args) || [ $$? = $(GRADE_OK_RC) ]

# The Python fixture class: week 43's Triton kernels (instructor/fixtures/classpy.sh):
# correct, wrong (add computes x - y), crash (each exercise kills the
# interpreter on import), unwritten (the starter). Graded with the python3 on
# PATH, then checked (instructor/tests/check_fixture_gradebook_py.sh): PYFX_MODE is
# nogpu under WB_NO_GPU=1 (every Python checkpoint SKIP, exit 3), interp
# under TRITON_INTERPRET=1 (correctness judged on the CPU, speed SKIP, exit
# 3), else gpu.
FIXTUREPY_WEEK := phase7/week43
FIXTUREPY_OUT  := $(BUILD)/instructor/fixturespy
PYFX_MODE ?= $(if $(filter 1,$(WB_NO_GPU)),nogpu,$(if $(filter 1,$(TRITON_INTERPRET)),interp,gpu))
grade-fixtures-py:
	+$(Q)$(call grade_prebuild,$(FIXTUREPY_WEEK))
	@rm -rf $(FIXTUREPY_OUT) && mkdir -p $(FIXTUREPY_OUT) && chmod 755 $(FIXTUREPY_OUT)
	@bash instructor/fixtures/classpy.sh $(FIXTUREPY_OUT)/class
	$(Q)$(GRADE_BIN) --root . --submissions $(FIXTUREPY_OUT)/class --weeks "$(FIXTUREPY_WEEK)" \
	  --gradebook $(FIXTUREPY_OUT)/gradebook.csv --scratch $(FIXTUREPY_OUT)/scratch --seed $(SEED) --limit $(FIXTURE_LIMIT) \
	  --jobs $(JOBS) --gpu-share $(GPU_SHARE) $(GRADE_MAKE_ARGS) $(FIXTURE_SCRATCH_ARGS); rc=$$?; echo "grade exited $$rc"; \
	  want=$(if $(filter gpu,$(PYFX_MODE)),0,3); [ $$rc = $$want ] || { echo "grade-fixtures-py: grade exited $$rc, expected $$want ($(PYFX_MODE))"; exit 1; }
	$(Q)bash instructor/tests/check_fixture_gradebook_py.sh $(FIXTUREPY_OUT)/gradebook.csv $(PYFX_MODE)

# A class of 30 for week 01 (instructor/fixtures/class30.sh), graded twice
# with the same seed: each run's time, and the two gradebooks checked to agree
# on every mark but speed credit (instructor/tests/check_class30.sh). Meant for a
# GPU machine (MODE=gpu); `make test` only checks that the class is made.
# CLASS30_RUNS="1" or "2" grades once (on a machine whose commands are
# time-limited: the other gradebook is kept, or copied into $(CLASS30_OUT)
# from an earlier run of the same tree); the check runs once both exist.
CLASS30_OUT := $(BUILD)/instructor/class30
CLASS30_RUNS ?= 1 2
MODE ?= gpu
grade-class30:
	+$(Q)$(call grade_prebuild,$(FIXTURE_WEEK))
	@mkdir -p $(CLASS30_OUT) && chmod 755 $(CLASS30_OUT) && rm -rf $(CLASS30_OUT)/class \
	  $(foreach r,$(CLASS30_RUNS),$(CLASS30_OUT)/gradebook$(r).csv $(CLASS30_OUT)/scratch$(r))
	@bash instructor/fixtures/class30.sh $(CLASS30_OUT)/class
	$(Q)for r in $(CLASS30_RUNS); do t0=$$(date +%s); \
	  $(GRADE_BIN) --root . --submissions $(CLASS30_OUT)/class --weeks "$(FIXTURE_WEEK)" \
	    --gradebook $(CLASS30_OUT)/gradebook$$r.csv --scratch $(CLASS30_OUT)/scratch$$r --seed $(SEED) --limit $(FIXTURE_LIMIT) \
	    --jobs $(JOBS) --gpu-share $(GPU_SHARE) $(GRADE_MAKE_ARGS) $(FIXTURE_SCRATCH_ARGS) $(grade_judge_args) >$(CLASS30_OUT)/grade$$r.log 2>&1; rc=$$?; \
	  echo "class of 30, grading $$r: exit $$rc after $$(( $$(date +%s) - t0 )) s ($(JOBS) jobs, $(GPU_SHARE) students sharing the GPU for correctness runs, limit $(FIXTURE_LIMIT) s)"; done
	$(Q)if [ -f $(CLASS30_OUT)/gradebook1.csv ] && [ -f $(CLASS30_OUT)/gradebook2.csv ]; then \
	  JUDGE=$(JUDGE) bash instructor/tests/check_class30.sh $(CLASS30_OUT)/gradebook1.csv $(CLASS30_OUT)/gradebook2.csv $(MODE); \
	else echo "class of 30: one gradebook so far; grade again with CLASS30_RUNS=\"1 2\" minus the one done"; fi

# The sandbox, unpacker and object checker's own programs (instructor/Makefile.sandbox).
SB_OUT := $(BUILD)/sandbox
SB_RUN := $(SB_OUT)/sb-run
$(SB_RUN): instructor/sandbox_cli.c instructor/sandbox.c instructor/sandbox.h
	$(Q)$(MAKE) -s -f instructor/Makefile.sandbox OUT=$(SB_OUT) CHECK_DIR=$(abs_check) $@ >/dev/null

# The device-memory probe for the planned judge and runner (instructor/README.md,
# "The judge and the runner"): build/instructor/probe-ipc, run on a
# GPU machine by instructor/tests/probe-ipc-gpu.sh (not a step of make test).
# The runtime linked statically, driver functions through its entry point: no -lcuda.
PROBE_IPC := $(BUILD)/instructor/probe-ipc
$(BUILD)/instructor/probe_ipc_kernels.o: instructor/probe_ipc_kernels.cu instructor/probe_ipc.h $(NVCC_STAMP)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  NVCC    $<")
	$(Q)$(NVCC) $(NVFLAGS) -Iinstructor -c $< -o $@
$(BUILD)/instructor/probe_ipc.o: instructor/sandbox.h instructor/grade.h
$(PROBE_IPC): $(BUILD)/instructor/probe_ipc.o $(BUILD)/instructor/probe_ipc_kernels.o $(BUILD)/instructor/sandbox.o \
              $(BUILD)/common/src/wb_multicast.o
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CXX) -o $@ $^ $(LDCUDA)

# The judge and the runner (instructor/README.md, "The judge and the runner";
# judge.h). A week's judge (judge-wNN) links no student code:
# its checks, judge_week.c (shared by every week's judge), judge.c and the
# judge's kernels; a week's runner links the student's objects,
# judge_runner.c and its main, and nothing that writes a results record (the
# link is refused if one is there). On an H200 (2026-11-28/29) the judges of weeks 01, 02, 04-09
# and 11 passed the reference and failed the starter through the grader, and those of weeks 01-05,
# 07, 08, 10, 12, 13, 15, 19 and 21-32 as programs of their own (week 03's only so; weeks 19 and
# 27-32 plain and sandboxed, w19.stencil-speed and w31.layernorm-bw short of the targets then in week.txt).
# The plumbing is tested without a GPU by instructor/Makefile.sandbox (test_judge), the CPU checkpoints
# through the runner by tests/judge.sh.
# make grade runs instructor/judge_calibrate.sh first when it judges a week
# with a judge.
$(BUILD)/instructor/judge_cuda.o: instructor/judge.c instructor/judge.h instructor/judge_msg.h
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -DJD_CUDA -Iinstructor -c $< -o $@
$(BUILD)/instructor/judge_runner_cuda.o: instructor/judge_runner.c instructor/judge.h instructor/judge_msg.h
	@mkdir -p $(@D)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -DJD_CUDA -Iinstructor -c $< -o $@
$(BUILD)/instructor/judge_kernels.o: instructor/judge_kernels.cu instructor/judge_kernels.h $(NVCC_STAMP)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  NVCC    $<")
	$(Q)$(NVCC) $(NVFLAGS) -Iinstructor -c $< -o $@
$(BUILD)/instructor/judge_sb.o: instructor/judge.h instructor/sandbox.h
$(BUILD)/instructor/judge_week.o: instructor/judge.h instructor/judge_sb.h instructor/judge_kernels.h instructor/sandbox.h
JUDGE_COMMON_OBJ := $(BUILD)/instructor/judge_week.o $(BUILD)/instructor/judge_cuda.o $(BUILD)/instructor/judge_sb.o \
                    $(BUILD)/instructor/judge_kernels.o $(BUILD)/instructor/sandbox.o
# A judge's own yard runner: the program, with no student object, through which the judge times a
# speed checkpoint's yardstick beside it. $(call yard_runner,NN,SOURCE,HEADERS,CFLAGS,OBJECTS,LIBS):
# judge_wNN_yard_runner.o from SOURCE (HEADERS its prerequisites too) with CFLAGS, linked with
# judge_runner_cuda.o, OBJECTS, libwb, LIBS and the CUDA runtime into $(JUDGE_WNN_YARD), which the
# judge needs beside it and `make judge-wNN` builds.
define yard_runner
JUDGE_W$(1)_YARD := $$(BUILD)/instructor/judge-w$(1)-yard-runner
$$(BUILD)/instructor/judge_w$(1)_yard_runner.o: $(2) $(3)
	@mkdir -p $$(@D)
	$$(if $$(Q),@echo "  CC      $$<")
	$$(Q)$$(CC) $$(CFLAGS) $(4) -c $$< -o $$@
$$(BUILD)/instructor/judge-w$(1)-yard-runner: $$(BUILD)/instructor/judge_w$(1)_yard_runner.o $$(BUILD)/instructor/judge_runner_cuda.o $(5) $$(LIBWB)
	$$(if $$(Q),@echo "  LD      $$@")
	$$(Q)$$(CXX) -o $$@ $$^$(if $(6), $(6)) $$(LDCUDA)
$$(JUDGE_W$(1)): | $$(BUILD)/instructor/judge-w$(1)-yard-runner
judge-w$(1): $$(BUILD)/instructor/judge-w$(1)-yard-runner
endef

# The yardstick's runner (judge_yard_runner.c: COPY through the judges' protocol), beside the judges.
JUDGE_YARD := $(BUILD)/instructor/judge-yard-runner
$(BUILD)/instructor/judge_yard_runner.o: instructor/judge.h instructor/judge_week.h
$(JUDGE_YARD): $(BUILD)/instructor/judge_yard_runner.o $(BUILD)/instructor/judge_runner_cuda.o $(LIBWB)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CXX) -o $@ $^ $(LDCUDA)

# $(call judge_rules,NN,WEEK-DIR,EXERCISES): build/instructor/judge-wNN from
# instructor/judge_wNN.c (with WEEK-DIR/wNN_checks.h, the checks it shares
# with the week's test, where it has one; the exercises' headers where they have one),
# build/instructor/judge_wNN_runner.o, and
# build/WEEK-DIR/IMPL/judge-runner for IMPL one of $(IMPLS): the runner of
# that build's objects (the grader builds the learner's in the sandbox).
# `make judge-wNN` builds the judge and the solution's and starter's runners.
define judge_rules
JUDGE_W$(1) := $(BUILD)/instructor/judge-w$(1)
$(BUILD)/instructor/judge_w$(1).o $(BUILD)/instructor/judge_w$(1)_runner.o: CFLAGS += -I$(2)
$(BUILD)/instructor/judge_w$(1).o: instructor/judge_week.h instructor/judge_kernels.h $(wildcard $(2)/w$(1)_checks.h) \
  $(wildcard $(foreach e,$(3),$(2)/$(e).h)) $(2)/week.txt
$(BUILD)/instructor/judge_w$(1)_runner.o: instructor/judge_w$(1)_runner.c instructor/judge_w$(1).h instructor/judge.h \
  $(wildcard $(foreach e,$(3),$(2)/$(e).h) $(2)/w$(1)_checks.h)
	@mkdir -p $$(@D)
	$$(if $$(Q),@echo "  CC      $$<")
	$$(Q)$$(CC) $$(CFLAGS) -Iinstructor -c $$< -o $$@
$(BUILD)/instructor/judge-w$(1): $(BUILD)/instructor/judge_w$(1).o $(JUDGE_COMMON_OBJ) $(LIBWB) | $(JUDGE_YARD)
	$$(if $$(Q),@echo "  LD      $$@")
	$$(Q)$$(CXX) -o $$@ $$^ $$(LDCUDA) $$(LDCHECK)
$(foreach i,$(IMPLS),$(BUILD)/$(2)/$(i)/judge-runner): $(BUILD)/$(2)/%/judge-runner: \
    $(BUILD)/instructor/judge_w$(1)_runner.o $(BUILD)/instructor/judge_runner_cuda.o \
    $(foreach e,$(3),$(BUILD)/$(2)/%/$(e).o) $(LIBWB)
	$$(if $$(Q),@echo "  LD      $$@")
	$$(Q)$$(CXX) -o $$@ $$^ $$(LDCUDA)
	$$(Q)if nm $$@ | grep -Eq ' [TtWw] (wb_results_|wb_test_main|srunner_)'; then \
	  echo ">>> $$@ links a results writer or the test harness: refused"; rm -f $$@; exit 1; fi
# (the runner's main object named: the grader links each student's runner from it, and .SECONDARY
# would leave a deleted one unbuilt while the runners above are up to date)
judge-w$(1): $(BUILD)/instructor/judge-w$(1) $(BUILD)/$(2)/solution/judge-runner $(BUILD)/$(2)/starter/judge-runner \
  $(BUILD)/instructor/judge_w$(1)_runner.o $(BUILD)/instructor/judge_runner_cuda.o
KNOWN_GOALS += judge-w$(1)
.PHONY: judge-w$(1)
endef
$(eval $(call judge_rules,01,phase0/week01,devquery vecadd))
$(eval $(call judge_rules,02,phase0/week02,bugs))
# week 02's given launches (support/launcher.cu) in its runner, as in its test program, and in its
# judge, which makes the same bad launch to know the error bug_check_launch must report
$(JUDGE_W02) $(foreach i,$(IMPLS),$(BUILD)/phase0/week02/$(i)/judge-runner): $(BUILD)/phase0/week02/support/launcher.o
$(BUILD)/instructor/judge_w02.o $(BUILD)/instructor/judge_w02_runner.o: phase0/week02/support/launcher.h
$(eval $(call judge_rules,03,phase0/week03,copy fmachain roofline))
$(eval $(call judge_rules,04,phase0/week04,saxpylib cli mytest))
$(eval $(call judge_rules,05,phase1/week05,ew views streams))
# week 05's given kernels (support/spin.cu: w05_mix, which the pipeline calls) in its runner, as in its test program
$(foreach i,$(IMPLS),$(BUILD)/phase1/week05/$(i)/judge-runner): $(BUILD)/phase1/week05/support/spin.o
$(eval $(call judge_rules,06,phase1/week06,transpose strided localmem constmem))
$(eval $(call judge_rules,07,phase1/week07,reduce scan hist atomics matmul))
# week 07's given support objects (the CUB wrappers, the naive atomics) in its runner, as in its test program
$(foreach i,$(IMPLS),$(BUILD)/phase1/week07/$(i)/judge-runner): $(BUILD)/phase1/week07/support/yard_cub.o \
  $(BUILD)/phase1/week07/support/yard_atomics_naive.o
# and its yardsticks' runner (judge_w07_yard_runner.c: CUB's sum and histogram, the naive key count, through
# the judges' protocol), beside the judge
$(BUILD)/instructor/judge-w07-yard-runner: $(BUILD)/instructor/judge_w07_yard_runner.o $(BUILD)/instructor/judge_runner_cuda.o \
  $(BUILD)/phase1/week07/support/yard_cub.o $(BUILD)/phase1/week07/support/yard_atomics_naive.o $(LIBWB)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CXX) -o $@ $^ $(LDCUDA)
$(BUILD)/instructor/judge_w07_yard_runner.o: CFLAGS += -Iphase1/week07
$(BUILD)/instructor/judge_w07_yard_runner.o: instructor/judge.h instructor/judge_w07.h phase1/week07/support/yard_cub.h \
  phase1/week07/atomics.h instructor/judge_ws.h
$(BUILD)/instructor/judge_w07_runner.o: instructor/judge_ws.h
$(JUDGE_W07): | $(BUILD)/instructor/judge-w07-yard-runner
judge-w07: $(BUILD)/instructor/judge-w07-yard-runner
$(eval $(call judge_rules,08,phase1/week08,lastblock gridsync vote lfstack litmus tally racefix))
$(eval $(call judge_rules,09,phase2/week09,intensity sweep))
# week 09's given FMA peak kernel (support/yard_fmapeak.cu) in its judge, which times the roof's compute
# half with it as the test does, and in its runners, as the grader links a week's support into a student's
$(JUDGE_W09) $(foreach i,$(IMPLS),$(BUILD)/phase2/week09/$(i)/judge-runner): $(BUILD)/phase2/week09/support/yard_fmapeak.o
$(BUILD)/instructor/judge_w09.o: phase2/week09/support/yard_fmapeak.h
$(eval $(call judge_rules,11,phase2/week11,polyt))
# week 11's given kernel (support/yard_slow.cu) in its runner, as in its test program, and in the
# judge's own yard runner (judge_w11_runner.c built with -DW11_YARD: yard_polyt_given and no student
# object, beside the judge), through which the judge times w11.polyt-speed's yardstick
$(foreach i,$(IMPLS),$(BUILD)/phase2/week11/$(i)/judge-runner): $(BUILD)/phase2/week11/support/yard_slow.o
$(eval $(call yard_runner,11,instructor/judge_w11_runner.c,instructor/judge_w11.h instructor/judge.h phase2/week11/polyt.h,-DW11_YARD -Iinstructor -Iphase2/week11,$(BUILD)/phase2/week11/support/yard_slow.o,))
$(eval $(call judge_rules,12,phase2/week12,ilp graph fuse))
# week 12's given support (support/tiny.cu, which graph_create captures; yard_eager.cu and
# yard_unfused.cu) in its runner, as in its test program, and in the judge's own yard runner
# (judge_w12_runner.c built with -DW12_YARD: yard_tiny_eager and yard_unfused_chain, no student
# object, beside the judge), through which the judge times EAGER and UNFUSED
W12_SUPPORT_OBJ := $(patsubst %,$(BUILD)/phase2/week12/support/%.o,tiny yard_eager yard_unfused)
$(foreach i,$(IMPLS),$(BUILD)/phase2/week12/$(i)/judge-runner): $(W12_SUPPORT_OBJ)
$(eval $(call yard_runner,12,instructor/judge_w12_runner.c,instructor/judge_w12.h instructor/judge.h phase2/week12/graph.h phase2/week12/fuse.h phase2/week12/ilp.h,-DW12_YARD -Iinstructor -Iphase2/week12,$(W12_SUPPORT_OBJ),))
$(eval $(call judge_rules,10,phase2/week10,occupancy volkov))
# week 10's given kernels (support/*.cu) in its runner, as the grader links a week's support into a student's;
# the given occupancy kernels (support/occ_kernels.cu) in its judge, which asks the runtime about them as the
# test does; and its own yard runner (judge_w10_runner.c built with -DW10_YARD: yard_fullocc_chains and no
# student object, beside the judge), through which the judge times w10.volkov-speed's yardstick
W10_SUPPORT := $(foreach s,occ_kernels scale yard_fullocc,$(BUILD)/phase2/week10/support/$(s).o)
$(foreach i,$(IMPLS),$(BUILD)/phase2/week10/$(i)/judge-runner): $(W10_SUPPORT)
$(JUDGE_W10): $(BUILD)/phase2/week10/support/occ_kernels.o
$(BUILD)/instructor/judge_w10.o: phase2/week10/support/occ_kernels.h
$(eval $(call yard_runner,10,instructor/judge_w10_runner.c,instructor/judge_w10.h instructor/judge.h phase2/week10/volkov.h phase2/week10/occupancy.h,-DW10_YARD -Iinstructor -Iphase2/week10,$(BUILD)/phase2/week10/support/yard_fullocc.o,))
$(eval $(call judge_rules,15,phase3/week15,traffic gelu_chain norm softmax smooth linear))
# week 15's given unfused chains (support/yard_unfused.cu) in its runner, as in its test program
$(foreach i,$(IMPLS),$(BUILD)/phase3/week15/$(i)/judge-runner): $(BUILD)/phase3/week15/support/yard_unfused.o
$(eval $(call judge_rules,16,phase3/week16,slab hostmem pipeline))
# week 16's judge (in JUDGED_WEEKS since it ran on an H200, 2026-11-29): the test's cases copied
# (test_week16.c has no shared header); its runners link the student's slab.o, hostmem.o and pipeline.o and
# the given support/work.o (w16_work, which pipeline_run calls), as the week's test program does; the judge
# links support/work.o too (the pipeline's reference on the device, and the work's calibration); its yard
# runner (judge_w16_yard_runner.c: SERIAL, the given yard_serial, no student object, beside the judge)
# times w16.pipeline-speed's yardstick
$(foreach i,$(IMPLS),$(BUILD)/phase3/week16/$(i)/judge-runner): $(BUILD)/phase3/week16/support/work.o
$(JUDGE_W16): $(BUILD)/phase3/week16/support/work.o
$(BUILD)/instructor/judge_w16.o: instructor/judge_w16.h phase3/week16/pipeline.h
$(eval $(call yard_runner,16,instructor/judge_w16_yard_runner.c,instructor/judge_w16.h instructor/judge.h phase3/week16/pipeline.h,-Iinstructor -Iphase3/week16,$(BUILD)/phase3/week16/support/yard_serial.o $(BUILD)/phase3/week16/support/work.o,))
$(eval $(call judge_rules,13,phase3/week13,warpreduce warpscan vote blockreduce gemv cgreduce scan1pass))
# week 13's given support objects (CUB's scan and row sums, the shared-memory row sums) in its runner, as in
# its test program, and CUB's scan and row sums in its yardsticks' runner (judge_w13_yard_runner.c, no student
# object), beside the judge
W13_SUPPORT := $(foreach s,yard_cub_scan yard_cub_rowsum yard_shared_rowsum,$(BUILD)/phase3/week13/support/$(s).o)
$(foreach i,$(IMPLS),$(BUILD)/phase3/week13/$(i)/judge-runner): $(W13_SUPPORT)
$(BUILD)/instructor/judge-w13-yard-runner: $(BUILD)/instructor/judge_w13_yard_runner.o $(BUILD)/instructor/judge_runner_cuda.o \
  $(BUILD)/phase3/week13/support/yard_cub_scan.o $(BUILD)/phase3/week13/support/yard_cub_rowsum.o $(LIBWB)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CXX) -o $@ $^ $(LDCUDA)
$(BUILD)/instructor/judge_w13_yard_runner.o: CFLAGS += -Iphase3/week13
$(BUILD)/instructor/judge_w13_yard_runner.o: instructor/judge.h instructor/judge_w13.h phase3/week13/support/yard_cub_scan.h \
  phase3/week13/support/yard_cub_rowsum.h instructor/judge_ws.h
$(BUILD)/instructor/judge_w13_runner.o: instructor/judge_ws.h
$(JUDGE_W13): | $(BUILD)/instructor/judge-w13-yard-runner
judge-w13: $(BUILD)/instructor/judge-w13-yard-runner
$(eval $(call judge_rules,26,phase5/week26,hgemm_mma))
# week 26's judge: the checks it shares with week 25's (judge_hgemm.c: the test's cases through
# phase5/common/hgemm_check.h, cuBLAS's DGEMM as the reference of the large and the timed outputs), and
# its yard runner (judge_hgemm_yard_runner.c built with -DHG_WITH_SIMT: cublasGemmEx and the given
# support/yard_sgemm_simt.o, no student object, beside the judge), through which the judge times
# w26.mma-speed's and w26.tc-wins's yardsticks
JUDGE_HGEMM_OBJ := $(BUILD)/instructor/judge_hgemm.o
$(JUDGE_HGEMM_OBJ): CFLAGS += -Iphase5/common
$(JUDGE_HGEMM_OBJ): instructor/judge_week.h instructor/judge_kernels.h \
  phase5/common/hgemm_check.h phase5/common/hgemm_host.h
$(JUDGE_W26): $(JUDGE_HGEMM_OBJ)
$(JUDGE_W26): private LDCUDA += -lcublas
$(eval $(call yard_runner,26,instructor/judge_hgemm_yard_runner.c,instructor/judge_hgemm.h instructor/judge.h phase5/common/hgemm_host.h phase5/week26/support/yard_sgemm_simt.h,-DHG_WITH_SIMT -Iinstructor -Iphase5/common -Iphase5/week26,$(BUILD)/phase5/week26/support/yard_sgemm_simt.o,-lcublas))
$(eval $(call judge_rules,25,phase5/week25,hgemm_wmma))
# week 25's judge: judge_hgemm.c's checks, as week 26's above, and its yard runner
# (judge_hgemm_yard_runner.c: cublasGemmEx alone, no student object, beside the judge)
$(JUDGE_W25): $(JUDGE_HGEMM_OBJ)
$(JUDGE_W25): private LDCUDA += -lcublas
$(eval $(call yard_runner,25,instructor/judge_hgemm_yard_runner.c,instructor/judge_hgemm.h instructor/judge.h phase5/common/hgemm_host.h,-Iinstructor -Iphase5/common,,-lcublas))
$(eval $(call judge_rules,28,phase5/week28,gemm_epilogue))
# week 28's judge: judge_hgemm.c's checks with the epilogue, and its yard runner (judge_w28_yard_runner.c:
# the week's given support/yard_epilogue.o, cuBLASLt's RELU_BIAS, no student object, beside the judge),
# through which the judge times w28.fused-speed's yardstick
$(JUDGE_W28): $(JUDGE_HGEMM_OBJ)
$(JUDGE_W28): private LDCUDA += -lcublas
$(BUILD)/instructor/judge_w28.o $(BUILD)/instructor/judge_w28_runner.o: instructor/judge_w28.h instructor/judge_hgemm.h
$(eval $(call yard_runner,28,instructor/judge_w28_yard_runner.c,instructor/judge_w28.h instructor/judge_hgemm.h instructor/judge.h phase5/week28/support/yard_epilogue.h,-Iinstructor -Iphase5/week28,$(BUILD)/phase5/week28/support/yard_epilogue.o,-lcublasLt -lcublas))
$(eval $(call judge_rules,27,phase5/week27,hgemm_tiled cutlass_gemm cutlass3_gemm))
# week 27's judge: judge_hgemm.c's checks on its three functions, and its yard
# runner (judge_hgemm_yard_runner.c built with -DHG_WITH_W26: cublasGemmEx and week 26's reference
# hgemm_mma.o as a given object, no student object, beside the judge), through which the judge times
# w27.tiled-speed's and w27.cutlass3-speed's yardsticks
$(JUDGE_W27): $(JUDGE_HGEMM_OBJ)
$(JUDGE_W27): private LDCUDA += -lcublas
$(BUILD)/instructor/judge_w27.o $(BUILD)/instructor/judge_w27_runner.o: instructor/judge_w27.h instructor/judge_hgemm.h
$(eval $(call yard_runner,27,instructor/judge_hgemm_yard_runner.c,instructor/judge_hgemm.h instructor/judge.h phase5/common/hgemm_host.h phase5/week26/hgemm_mma.h,-DHG_WITH_W26 -Iinstructor -Iphase5/common -Iphase5/week26,$(BUILD)/phase5/week26/solution/hgemm_mma.o,-lcublas))
$(eval $(call judge_rules,32,phase6/week32,ln_host ln_dx ln_dgb))
# week 32's judge: the checks of phase6/week32/w32_checks.h, and its own kernels
# (judge_w32_kernels.cu: the timed outputs' references and full checks), linked into this judge alone
$(JUDGE_W32): $(BUILD)/instructor/judge_w32_kernels.o
$(BUILD)/instructor/judge_w32.o: instructor/judge_w32_kernels.h
$(BUILD)/instructor/judge_w32_kernels.o: instructor/judge_w32_kernels.cu instructor/judge_w32_kernels.h $(NVCC_STAMP)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  NVCC    $<")
	$(Q)$(NVCC) $(NVFLAGS) -Iinstructor -c $< -o $@
$(eval $(call judge_rules,33,phase6/week33,qkt mask))
# week 33's judge: the checks of
# phase6/week33/w33_checks.h; no kernel of its own, no yardstick; cuBLAS for its statuses' names; its
# runner links cuBLAS (the week's libs: qkt.o calls it)
$(JUDGE_W33): LDCUDA += -lcublas
$(BUILD)/instructor/judge_w33.o: instructor/judge_w33.h instructor/judge_cublas.h
$(foreach i,$(IMPLS),$(BUILD)/phase6/week33/$(i)/judge-runner): LDCUDA += -lcublas
$(eval $(call judge_rules,34,phase6/week34,softmax pv attention))
# week 34's judge: the checks of
# phase6/week34/w34_checks.h, its own kernel (judge_w34_kernels.cu: the timed softmax's full check), linked
# into this judge alone, and cuBLAS for its statuses' names; its runner links week 33's qkt.o and mask.o
# as the week's test program does (week.txt's uses:) and cuBLAS
$(JUDGE_W34): LDCUDA += -lcublas
$(BUILD)/instructor/judge_w34_kernels.o: instructor/judge_w34_kernels.cu instructor/judge_w34_kernels.h $(NVCC_STAMP)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  NVCC    $<")
	$(Q)$(NVCC) $(NVFLAGS) -Iinstructor -c $< -o $@
$(JUDGE_W34): $(BUILD)/instructor/judge_w34_kernels.o
$(BUILD)/instructor/judge_w34.o: instructor/judge_w34.h instructor/judge_w34_kernels.h instructor/judge_cublas.h
$(foreach i,$(IMPLS),$(BUILD)/phase6/week34/$(i)/judge-runner): $(call used_objs,phase6/week34)
$(foreach i,$(IMPLS),$(BUILD)/phase6/week34/$(i)/judge-runner): LDCUDA += -lcublas
$(eval $(call judge_rules,35,phase6/week35,philox dropout))
# week 35's judge (as week 32's): its own model of the mask (judge_w35_philox.h) and its own kernel
# (judge_w35_kernels.cu: the timed outputs' full check against that model), linked into this judge alone
$(JUDGE_W35): $(BUILD)/instructor/judge_w35_kernels.o
$(BUILD)/instructor/judge_w35.o $(BUILD)/instructor/judge_w35_runner.o: instructor/judge_w35.h
$(BUILD)/instructor/judge_w35.o: instructor/judge_w35_kernels.h instructor/judge_w35_philox.h
$(BUILD)/instructor/judge_w35_kernels.o: instructor/judge_w35_kernels.cu instructor/judge_w35_kernels.h \
  instructor/judge_w35_philox.h $(NVCC_STAMP)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  NVCC    $<")
	$(Q)$(NVCC) $(NVFLAGS) -Iinstructor -c $< -o $@
$(eval $(call judge_rules,36,phase6/week36,traffic smx split))
# week 36's judge, its own kernels
# (judge_w36_kernels.cu: the timed outputs' row statistics and full checks), linked into this judge alone,
# and its yard runner (judge_w36_yard_runner.c: the week's given support/yard_unfused.o, no student object,
# beside the judge), through which the judge times w36.model's given chain
$(BUILD)/instructor/judge_w36.o: instructor/judge_w36.h instructor/judge_w36_kernels.h
$(BUILD)/instructor/judge_w36_kernels.o: instructor/judge_w36_kernels.cu instructor/judge_w36_kernels.h $(NVCC_STAMP)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  NVCC    $<")
	$(Q)$(NVCC) $(NVFLAGS) -Iinstructor -c $< -o $@
$(JUDGE_W36): $(BUILD)/instructor/judge_w36_kernels.o
$(eval $(call yard_runner,36,instructor/judge_w36_yard_runner.c,instructor/judge_w36.h instructor/judge.h phase6/week36/smx.h,-Iinstructor -Iphase6/week36,$(BUILD)/phase6/week36/support/yard_unfused.o,))
# phase 5's SGEMM weeks (21-24): what their judges share (judge_gemm.c: the cases of
# phase5/common/gemm_check.h, the judge's cublasDgemm references, the 4096^3 run against cuBLAS)
# and its yardstick's runner (judge_gemm_yard_runner.c: cublasSgemm, pedantic FP32, and week 21's
# given support/yard_naive.o, the reference naive kernel in this tree; no student object), beside
# the judges, which link cuBLAS for their references
JUDGE_GEMM_YARD := $(BUILD)/instructor/judge-gemm-yard-runner
$(BUILD)/instructor/judge_gemm.o: CFLAGS += -Iphase5/common
$(BUILD)/instructor/judge_gemm.o: instructor/judge_gemm.h instructor/judge.h instructor/judge_week.h instructor/judge_kernels.h \
  phase5/common/gemm_check.h phase5/common/yard_sgemm.h
$(BUILD)/instructor/judge_gemm_yard_runner.o: instructor/judge.h instructor/judge_gemm.h
$(JUDGE_GEMM_YARD): $(BUILD)/instructor/judge_gemm_yard_runner.o $(BUILD)/instructor/judge_runner_cuda.o \
  $(BUILD)/phase5/week21/support/yard_naive.o $(LIBWB)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CXX) -o $@ $^ $(LDCUDA) -lcublas
# $(call judge_gemm_week,NN): week NN's judge with judge_gemm.o and cuBLAS, its yard runner beside it
define judge_gemm_week
$(JUDGE_W$(1)): $(BUILD)/instructor/judge_gemm.o | $(JUDGE_GEMM_YARD)
$(JUDGE_W$(1)): LDCUDA += -lcublas
$(BUILD)/instructor/judge_w$(1).o $(BUILD)/instructor/judge_w$(1)_runner.o: instructor/judge_gemm.h
judge-w$(1): $(JUDGE_GEMM_YARD)
endef
$(eval $(call judge_rules,23,phase5/week23,tile1d tile2d))
$(eval $(call judge_gemm_week,23))
$(eval $(call judge_rules,24,phase5/week24,vec4 dbuf warptile))
$(eval $(call judge_gemm_week,24))
$(eval $(call judge_rules,22,phase5/week22,tiled))
$(eval $(call judge_gemm_week,22))
$(eval $(call judge_rules,21,phase5/week21,naive coalesced cublas_rm))
$(eval $(call judge_gemm_week,21))
# week 21's given support/yard_naive.o in its runner, as in its test program, and cuBLAS (cublas_rm.o calls it)
$(foreach i,$(IMPLS),$(BUILD)/phase5/week21/$(i)/judge-runner): $(BUILD)/phase5/week21/support/yard_naive.o
$(foreach i,$(IMPLS),$(BUILD)/phase5/week21/$(i)/judge-runner): LDCUDA += -lcublas
$(eval $(call judge_rules,19,phase4/week19,nbody leapfrog cellgrid stencil))
$(eval $(call judge_rules,29,phase6/week29,naive stable))
# week 29's judge: the test's checks through phase6/week29/w29_checks.h, the double reference of
# phase6/common/softmax_check.h; no kernel of its own (every output is read back and checked on the host)
# and no yardstick (no speed checkpoint)
$(BUILD)/instructor/judge_w29.o: CFLAGS += -Iphase6/common
$(BUILD)/instructor/judge_w29.o: phase6/common/softmax_check.h instructor/judge_w29.h
# and, for its test without a GPU (instructor/tests/judge_w29.sh), a runner of the week's functions on the CPU
# (judge_w29_host.c: instructor code, right or with the bug W29_HOST_BUG names), to which the judge gives host buffers
$(BUILD)/instructor/judge_w29_host.o: CFLAGS += -Iphase6/week29
$(BUILD)/instructor/judge_w29_host.o: phase6/week29/naive.h phase6/week29/stable.h
$(BUILD)/instructor/judge-w29-host-runner: $(BUILD)/instructor/judge_w29_runner.o $(BUILD)/instructor/judge_runner_cuda.o \
  $(BUILD)/instructor/judge_w29_host.o $(LIBWB)
	$(if $(Q),@echo "  LD      $@")
	$(Q)$(CXX) -o $@ $^ $(LDCUDA)
judge-w29: $(BUILD)/instructor/judge-w29-host-runner
$(eval $(call judge_rules,30,phase6/week30,online rowsoftmax))
# week 30's judge: the test's reference
# (phase6/common/softmax_check.h), its own kernel judge_w30_kernels.cu (the look's expected values, linked
# into judge-w30 alone), cuDNN found as the test finds it (wb_cudnn.h, libwb's loader), and its yard runner
# (judge_w30_yard_runner.c: the week's given support/yard_cudnn_softmax.o, no student object, beside the
# judge), through which the judge times w30.cudnn's yardstick
$(BUILD)/instructor/judge_w30.o: CFLAGS += -Iphase6/common
$(BUILD)/instructor/judge_w30.o: instructor/judge_w30.h instructor/judge_w30_kernels.h phase6/common/softmax_check.h
$(BUILD)/instructor/judge_w30_kernels.o: instructor/judge_w30_kernels.cu instructor/judge_w30_kernels.h $(NVCC_STAMP)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  NVCC    $<")
	$(Q)$(NVCC) $(NVFLAGS) -Iinstructor -c $< -o $@
$(JUDGE_W30): $(BUILD)/instructor/judge_w30_kernels.o
$(eval $(call yard_runner,30,instructor/judge_w30_yard_runner.c,instructor/judge_w30.h instructor/judge.h phase6/week30/support/yard_cudnn_softmax.h,-Iinstructor -Iphase6/week30,$(BUILD)/phase6/week30/support/yard_cudnn_softmax.o,))
$(eval $(call judge_rules,31,phase6/week31,moments layernorm rmsnorm))
# week 31's judge and its own kernel (judge_w31_kernels.cu: the timed outputs' full check), linked into this
# judge alone
$(BUILD)/instructor/judge_w31_kernels.o: instructor/judge_w31_kernels.cu instructor/judge_w31_kernels.h $(NVCC_STAMP)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  NVCC    $<")
	$(Q)$(NVCC) $(NVFLAGS) -Iinstructor -c $< -o $@
$(JUDGE_W31): $(BUILD)/instructor/judge_w31_kernels.o
$(BUILD)/instructor/judge_w31.o: instructor/judge_w31.h instructor/judge_w31_kernels.h
$(eval $(call judge_rules,37,phase6/week37,attn_io flash_attn))
# week 37's judge: the week's given
# support objects and cuBLAS in its runners, as the grader links a week's runner; its own kernels
# (judge_w37_kernels.cu: the double reference's softmax and the look's gather), linked into judge-w37 alone,
# which links cuBLAS for its cublasDgemm reference; and its yard runner (judge_w37_yard_runner.c: the
# week's given support/yard_cublas_attn.o, no student object, beside the judge), through which the judge
# times w37.flash-speed's yardstick
W37_SUPPORT_OBJ := $(BUILD)/phase6/week37/support/yard_cublas_attn.o $(BUILD)/phase6/week37/support/yard_naive_attn.o
$(foreach i,$(IMPLS),$(BUILD)/phase6/week37/$(i)/judge-runner): $(W37_SUPPORT_OBJ)
$(foreach i,$(IMPLS),$(BUILD)/phase6/week37/$(i)/judge-runner): LDCUDA += -lcublas
$(BUILD)/instructor/judge_w37.o: instructor/judge_w37.h instructor/judge_w37_kernels.h
$(BUILD)/instructor/judge_w37_kernels.o: instructor/judge_w37_kernels.cu instructor/judge_w37_kernels.h $(NVCC_STAMP)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  NVCC    $<")
	$(Q)$(NVCC) $(NVFLAGS) -Iinstructor -c $< -o $@
$(JUDGE_W37): $(BUILD)/instructor/judge_w37_kernels.o
$(JUDGE_W37): LDCUDA += -lcublas
$(eval $(call yard_runner,37,instructor/judge_w37_yard_runner.c,instructor/judge_w37.h instructor/judge.h phase6/week37/support/yard_cublas_attn.h,-Iinstructor -Iphase6/week37,$(BUILD)/phase6/week37/support/yard_cublas_attn.o,-lcublas))
$(eval $(call judge_rules,38,phase6/week38,flash_attn))
# week 38's judge: its own kernels
# (judge_w38_kernels.cu: the timed inputs' fill, the attention reference in double and its check of every
# element, linked into judge-w38 alone), cuDNN found as the test finds it (wb_cudnn.h, libwb's loader), and
# its yard runner (judge_w38_yard_runner.c: the phase's given cuDNN SDPA yardstick,
# phase6/common/cudnn-frontend/yard_sdpa_cudnn.o, no student object, beside the judge), through which the
# judge times w38.fwd-speed's yardstick
$(BUILD)/instructor/judge_w38.o: instructor/judge_w38.h instructor/judge_w38_kernels.h
$(BUILD)/instructor/judge_w38_kernels.o: instructor/judge_w38_kernels.cu instructor/judge_w38_kernels.h $(NVCC_STAMP)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  NVCC    $<")
	$(Q)$(NVCC) $(NVFLAGS) -Iinstructor -c $< -o $@
$(JUDGE_W38): $(BUILD)/instructor/judge_w38_kernels.o
$(eval $(call yard_runner,38,instructor/judge_w38_yard_runner.c,instructor/judge_w38.h instructor/judge.h phase6/common/cudnn-frontend/yard_sdpa_cudnn.h,-Iinstructor -Iphase6/common/cudnn-frontend,$(BUILD)/phase6/common/cudnn-frontend/yard_sdpa_cudnn.o,))
# the calls, checks and timing of week 38's attention contract (judge_attn.c), shared by the judges of
# weeks 38 and 62 (its cases and reference: phase6/week38/w38_checks.h)
$(BUILD)/instructor/judge_attn.o: CFLAGS += -Iphase6/week38
$(BUILD)/instructor/judge_attn.o: instructor/judge_w38.h instructor/judge_w38_kernels.h instructor/judge_week.h \
  instructor/judge.h phase6/week38/w38_checks.h
$(BUILD)/instructor/judge_w38.o: instructor/judge_attn.h
$(JUDGE_W38): $(BUILD)/instructor/judge_attn.o
$(JUDGE_W38): private LDCHECK += $(LIBWB)  # (judge_attn.o comes after libwb in the link and calls it)
$(eval $(call judge_rules,39,phase7/week39,softmax_ext))
# week 39's judge: the C API's checks
# (judge_smx7.h, shared with week 40's judge; the reference of phase7/common/softmax_host.h, the test's
# own); no kernel of its own, no yardstick; its runner links softmax_ext.o as the Check test does (the C
# API alone, no WB_TORCH_EXT)
$(BUILD)/instructor/judge_w39.o: CFLAGS += -Iphase7/common
$(BUILD)/instructor/judge_w39.o: instructor/judge_w39.h instructor/judge_smx7.h phase7/common/softmax_host.h
$(eval $(call judge_rules,40,phase7/week40,softmax_checked))
# week 40's judge: week 39's C API
# checks (judge_smx7.h) over softmax_checked's cases and refusals; no kernel of its own, no yardstick; its
# runner links softmax_checked.o as the Check test does (the C API alone, no WB_TORCH_EXT)
$(BUILD)/instructor/judge_w40.o: CFLAGS += -Iphase7/common
$(BUILD)/instructor/judge_w40.o: instructor/judge_w40.h instructor/judge_smx7.h phase7/common/softmax_host.h
$(eval $(call judge_rules,41,phase7/week41,ln_fwd))
# week 41's judge: the C test's checks
# through phase7/week41/w41_checks.h; no kernel of its own (every output is read back and checked on the
# host) and no yardstick (the C test has no speed checkpoint)
$(eval $(call judge_rules,42,phase7/week42,ln_bwd))
# week 42's judge (as week 41's): the C test's checks through phase7/week42/w42_checks.h; no
# kernel of its own and no yardstick
$(eval $(call judge_rules,53,phase5/week53,tma_box tma_copy))
# week 53's judge: the copy's values,
# special bits and empty shapes of phase5/common/tma_copy_check.h, which the week's test includes too; no
# kernel of its own (jd_perm_check_f32 checks the timed outputs) and no yardstick but COPY; the week's given
# support/clip_probe.o in its runners, as the grader links a week's support into a student's
$(BUILD)/instructor/judge_w53.o: CFLAGS += -Iphase5/common
$(BUILD)/instructor/judge_w53.o: instructor/judge_w53.h phase5/common/tma_copy_check.h
$(BUILD)/instructor/judge_w53_runner.o: instructor/judge_w53.h
$(foreach i,$(IMPLS),$(BUILD)/phase5/week53/$(i)/judge-runner): $(BUILD)/phase5/week53/support/clip_probe.o
$(eval $(call judge_rules,56,phase5/week56,cluster_hist tma_multicast))
# week 56's judge: the copy checks it
# shares with week 53's (judge_tma_copy.c, over phase5/common/tma_copy_check.h, which the tests include);
# jd_on_sm90 from judge_gemm_refs.o; no kernel of its own (jd_perm_check_f32 checks each copy of the timed
# outputs) and no yardstick but COPY; the week's given support/yard_hist.o in its runners, as the grader
# links a week's support into a student's, and week 53's reference objects as the week's test program
# does (week.txt's uses:: tma_multicast.o calls tma_box_plan)
$(BUILD)/instructor/judge_w56.o: CFLAGS += -Iphase5/common
$(BUILD)/instructor/judge_w56.o: instructor/judge_w56.h instructor/judge_gemm_refs.h phase5/common/tma_copy_check.h
$(BUILD)/instructor/judge_w56_runner.o: instructor/judge_w56.h
$(JUDGE_W56): $(BUILD)/instructor/judge_gemm_refs.o
# the copy checks weeks 53 and 56 share (judge_tma_copy.c), linked into their two judges
$(BUILD)/instructor/judge_tma_copy.o: CFLAGS += -Iphase5/common
$(BUILD)/instructor/judge_tma_copy.o: instructor/judge_week.h phase5/common/tma_copy_check.h
$(BUILD)/instructor/judge_w53.o $(BUILD)/instructor/judge_w56.o: instructor/judge_tma_copy.h
$(JUDGE_W53) $(JUDGE_W56): $(BUILD)/instructor/judge_tma_copy.o
$(foreach i,$(IMPLS),$(BUILD)/phase5/week56/$(i)/judge-runner): $(BUILD)/phase5/week56/support/yard_hist.o
$(foreach i,$(IMPLS),$(BUILD)/phase5/week56/$(i)/judge-runner): $(call used_objs,phase5/week56)
$(eval $(call judge_rules,57,phase6/week57,paged_attn))
# week 57's judge kernels (judge_w57_kernels.cu: the paged decode reference in double, its check of every
# element of a timed output and its values at the look's positions), linked into judge-w57 alone
$(BUILD)/instructor/judge_w57.o: instructor/judge_w57.h instructor/judge_w57_kernels.h
$(BUILD)/instructor/judge_w57_kernels.o: instructor/judge_w57_kernels.cu instructor/judge_w57_kernels.h $(NVCC_STAMP)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  NVCC    $<")
	$(Q)$(NVCC) $(NVFLAGS) -Iinstructor -c $< -o $@
$(JUDGE_W57): $(BUILD)/instructor/judge_w57_kernels.o
$(eval $(call judge_rules,59,phase6/week59,flash_bwd))
# week 59's judge: the week's given
# forward (support/attn_fwd_lse.o, which makes O and lse from the judge's own Q, K and V, as in the test)
# and its double reference (support/bwd_ref.h, the test's) in the judge; the runner holds flash_bwd alone
$(BUILD)/instructor/judge_w59.o: instructor/judge_w59.h phase6/week59/support/attn_fwd_lse.h \
  phase6/week59/support/bwd_ref.h
$(JUDGE_W59): $(BUILD)/phase6/week59/support/attn_fwd_lse.o
$(eval $(call judge_rules,60,phase6/week60,fp8_convert fp8_gemm))
# week 60's judge: the student's
# fp8_convert.o and fp8_gemm.o (sm_90a, as the week's rules build them) in its runners; its own kernels
# (judge_w60_kernels.cu: the timed inputs' fill and the check of every timed output, linked into judge-w60
# alone); and its yard runner (judge_w60_yard_runner.c: the week's given support/yard_fp8_lt.o, cuBLASLt's
# FP8 GEMM, no student object, beside the judge), through which the judge times w60.fp8-speed's yardstick
$(BUILD)/instructor/judge_w60.o $(BUILD)/instructor/judge_w60_runner.o: instructor/judge_w60.h \
  phase6/week60/support/fp8_fill.h
$(BUILD)/instructor/judge_w60.o: instructor/judge_w60_kernels.h
$(BUILD)/instructor/judge_w60_kernels.o: instructor/judge_w60_kernels.cu instructor/judge_w60_kernels.h \
  instructor/judge_w60.h phase6/week60/support/fp8_fill.h $(NVCC_STAMP)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  NVCC    $<")
	$(Q)$(NVCC) $(NVFLAGS) -Iinstructor -Iphase6/week60 -c $< -o $@
$(JUDGE_W60): $(BUILD)/instructor/judge_w60_kernels.o
$(eval $(call yard_runner,60,instructor/judge_w60_yard_runner.c,instructor/judge_w60.h instructor/judge.h phase6/week60/support/yard_fp8_lt.h,-Iinstructor -Iphase6/week60,$(BUILD)/phase6/week60/support/yard_fp8_lt.o,-lcublasLt -lcublas))
$(eval $(call judge_rules,61,phase6/week61,sp24_pack sp24_gemm))
# week 61's judge: the student's
# sp24_pack.o and sp24_gemm.o and the week's given support/sp24_probe.o (as in the test program) in its
# runners; its own kernels (judge_w61_kernels.cu: the timed inputs' fill and the check of every timed
# output, linked into judge-w61 alone); and its yard runner (judge_w61_yard_runner.c: cublasGemmEx on the
# dense pruned weights, no student object, beside the judge), through which the judge times
# w61.sparse-speed's yardstick
$(foreach i,$(IMPLS),$(BUILD)/phase6/week61/$(i)/judge-runner): $(BUILD)/phase6/week61/support/sp24_probe.o
$(BUILD)/instructor/judge_w61.o $(BUILD)/instructor/judge_w61_runner.o: instructor/judge_w61.h
$(BUILD)/instructor/judge_w61_runner.o: phase6/week61/support/sp24_probe.h
$(BUILD)/instructor/judge_w61.o: instructor/judge_w61_kernels.h
$(BUILD)/instructor/judge_w61_kernels.o: instructor/judge_w61_kernels.cu instructor/judge_w61_kernels.h \
  instructor/judge_w61.h common/include/wb_hd.h $(NVCC_STAMP)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  NVCC    $<")
	$(Q)$(NVCC) $(NVFLAGS) -Iinstructor -c $< -o $@
$(JUDGE_W61): $(BUILD)/instructor/judge_w61_kernels.o
$(eval $(call yard_runner,61,instructor/judge_w61_yard_runner.c,instructor/judge_w61.h instructor/judge.h,-Iinstructor,,-lcublas))
$(eval $(call judge_rules,62,phase6/week62,fa3_fwd))
# week 62's judge: week 38's attention
# contract, so week 38's judge's calls, checks and timing (judge_attn.c), its kernels (judge_w38_kernels.cu)
# and its yard runner (judge-w38-yard-runner: cuDNN SDPA, no student object), and jd_on_sm90
# (judge_gemm_refs.c: its checkpoints SKIP on a GPU that is not compute capability 9.0)
$(BUILD)/instructor/judge_w62.o: CFLAGS += -Iphase6/week38
$(BUILD)/instructor/judge_w62.o: instructor/judge_w62.h instructor/judge_attn.h instructor/judge_gemm_refs.h \
  phase6/week38/w38_checks.h
$(JUDGE_W62): $(BUILD)/instructor/judge_attn.o $(BUILD)/instructor/judge_w38_kernels.o $(BUILD)/instructor/judge_gemm_refs.o
$(JUDGE_W62): private LDCHECK += $(LIBWB)  # (judge_attn.o comes after libwb in the link and calls it)
$(JUDGE_W62): | $(JUDGE_W38_YARD)
judge-w62: $(JUDGE_W38_YARD)
$(eval $(call judge_rules,18,phase4/week18,model_io fp32 fp16 int8 plan bf16))
# week 18's judge (in JUDGED_WEEKS since
# 2026-11-29, after it ran on an H200): the test's cases copied (test_week18.c has no shared header);
# w18.load and w18.model CPU checkpoints (the loaders' files the runner's own, in its $TMPDIR, the
# shipped ones read by the judge from --week-dir); its runners link the student's model_io.o, fp32.o,
# fp16.o, int8.o, plan.o and bf16.o and cuBLASLt (the week's libs); its own
# kernels (judge_w18_kernels.cu: the timed layer's inputs from their seeds and the check of every timed
# output, linked into judge-w18 alone); and its yard runner (judge_w18_yard_runner.c: the week's given
# support/yard_lt_layer.o, cuBLASLt's fused layer, no student object, beside the judge), through which the
# judge times w18.layer-speed's and w18.bf16-speed's yardstick
$(BUILD)/instructor/judge_w18.o $(BUILD)/instructor/judge_w18_runner.o: instructor/judge_w18.h
$(BUILD)/instructor/judge_w18.o: instructor/judge_w18_kernels.h
$(foreach i,$(IMPLS),$(BUILD)/phase4/week18/$(i)/judge-runner): LDCUDA += -lcublasLt
$(BUILD)/instructor/judge_w18_kernels.o: instructor/judge_w18_kernels.cu instructor/judge_w18_kernels.h $(NVCC_STAMP)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  NVCC    $<")
	$(Q)$(NVCC) $(NVFLAGS) -Iinstructor -c $< -o $@
$(JUDGE_W18): $(BUILD)/instructor/judge_w18_kernels.o
$(eval $(call yard_runner,18,instructor/judge_w18_yard_runner.c,instructor/judge_w18.h instructor/judge.h phase4/week18/support/yard_lt_layer.h,-Iinstructor -Iphase4/week18,$(BUILD)/phase4/week18/support/yard_lt_layer.o,-lcublasLt))
$(eval $(call judge_rules,20,phase4/week20,wbk app))
# week 20's judge (in JUDGED_WEEKS since it ran on an H200, 2026-11-29): the test's cases copied
# (test_week20.c has no shared header); every array host memory both processes map; its runners link the
# student's wbk.o and app.o and the kernels of the weeks week.txt `uses:`, as the week's test program does,
# and make their own contexts; its yard runner (judge_w20_yard_runner.c: XFER, the copy up and back down
# between the same pinned host buffers, no student object, beside the judge), through which the judge
# times w20.standardize-speed's yardstick
$(foreach i,$(IMPLS),$(BUILD)/phase4/week20/$(i)/judge-runner): $(call used_objs,phase4/week20)
$(BUILD)/instructor/judge_w20.o: instructor/judge_w20.h
$(eval $(call yard_runner,20,instructor/judge_w20_yard_runner.c,instructor/judge_w20.h instructor/judge.h,-Iinstructor,,))
$(eval $(call judge_rules,17,phase4/week17,pgm conv2d separable equalize resize sobel pipeline))
# week 17's judge: the test's cases
# copied (test_week17.c has no shared header); w17.pgm a CPU checkpoint (the runner's files in its own
# $TMPDIR, the shipped images read by the judge from --week-dir); its own kernels (judge_w17_kernels.cu: the
# timed convolutions' full check, the timed pipeline's scenes and its reference on the GPU, linked into
# judge-w17 alone); cuDNN found as the test finds it (wb_cudnn.h) and its yard runner
# (judge_w17_yard_runner.c: the week's given support/yard_cudnn_conv.o, no student object, beside the
# judge), through which the judge times w17.conv-speed's yardstick
$(BUILD)/instructor/judge_w17.o $(BUILD)/instructor/judge_w17_runner.o: instructor/judge_w17.h
$(BUILD)/instructor/judge_w17.o: instructor/judge_w17_kernels.h
$(BUILD)/instructor/judge_w17_kernels.o: instructor/judge_w17_kernels.cu instructor/judge_w17_kernels.h $(NVCC_STAMP)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  NVCC    $<")
	$(Q)$(NVCC) $(NVFLAGS) -Iinstructor -c $< -o $@
$(JUDGE_W17): $(BUILD)/instructor/judge_w17_kernels.o
$(eval $(call yard_runner,17,instructor/judge_w17_yard_runner.c,instructor/judge_w17.h instructor/judge.h phase4/week17/support/yard_cudnn_conv.h,-Iinstructor -Iphase4/week17,$(BUILD)/phase4/week17/support/yard_cudnn_conv.o,))
$(eval $(call judge_rules,14,phase3/week14,blas cubdev cubblock thrustops))
# week 14's judge: the student's
# blas.o, cubdev.o, cubblock.o and thrustops.o in its runners, which link cuBLAS (the week's libs) and
# make their own handle; cuBLAS in the judge for its statuses' names (judge_cublas.h)
$(JUDGE_W14): private LDCUDA += -lcublas
$(BUILD)/instructor/judge_w14.o: instructor/judge_w14.h instructor/judge_cublas.h
$(BUILD)/instructor/judge_w14_runner.o: instructor/judge_ws.h
$(foreach i,$(IMPLS),$(BUILD)/phase3/week14/$(i)/judge-runner): LDCUDA += -lcublas
# and judge_gemm.c's 4096^3 set-up (w14.tf32-speed: every timed C against cublasDgemm), and its yard runner
# (judge_w14_yard_runner.c: cublasSgemm in TF32 mode and a loop of cublasSgemm, no student object, beside
# the judge), through which the judge times w14.tf32-speed's and w14.strided-speed's yardsticks
$(JUDGE_W14): $(BUILD)/instructor/judge_gemm.o
$(JUDGE_W14): private LDCHECK += $(LIBWB)  # (judge_gemm.o comes after libwb in the link and calls it)
$(BUILD)/instructor/judge_w14.o: instructor/judge_gemm.h
$(eval $(call yard_runner,14,instructor/judge_w14_yard_runner.c,instructor/judge_w14.h instructor/judge.h,-Iinstructor,,-lcublas))
# w14.sort-speed: the judge's own kernels (judge_w14_kernels.cu: the timed sort's inputs from a seed, its
# outputs checked in full, CUB's SortPairs for the judge's look and for the yard runner's ALLBITS, over all
# 32 bits), linked into the judge and its yard runner
$(BUILD)/instructor/judge_w14_kernels.o: instructor/judge_w14_kernels.cu instructor/judge_w14_kernels.h $(NVCC_STAMP)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  NVCC    $<")
	$(Q)$(NVCC) $(NVFLAGS) -Iinstructor -c $< -o $@
$(BUILD)/instructor/judge_w14.o: instructor/judge_w14_kernels.h
$(BUILD)/instructor/judge_w14_yard_runner.o: instructor/judge_w14_kernels.h instructor/judge_ws.h
$(JUDGE_W14) $(JUDGE_W14_YARD): $(BUILD)/instructor/judge_w14_kernels.o
$(eval $(call judge_rules,54,phase5/week54,wgmma_desc wgmma_gemm))
# week 54's judge: the checks it
# shares with week 55's (judge_bf16gemm.c: the tests' tolerance and types through
# phase5/common/bf16_gemm_check.h, cuBLAS's DGEMM as the reference of the large and the timed outputs,
# its own kernel judge_bf16gemm_kernels.cu), and its yard runner (judge_bf16gemm_yard_runner.c:
# cublasGemmEx BF16 TN alone, no student object, beside the judge), through which the judge times
# w54.gemm-speed's yardstick
JUDGE_BF16GEMM_OBJ := $(BUILD)/instructor/judge_bf16gemm.o $(BUILD)/instructor/judge_bf16gemm_kernels.o \
  $(BUILD)/instructor/judge_gemm_refs.o
$(BUILD)/instructor/judge_bf16gemm.o $(BUILD)/instructor/judge_w54.o: CFLAGS += -Iphase5/common
$(BUILD)/instructor/judge_bf16gemm.o: instructor/judge_bf16gemm.h instructor/judge_bf16gemm_kernels.h instructor/judge_gemm_refs.h \
  instructor/judge_week.h instructor/judge_kernels.h phase5/common/bf16_gemm_check.h phase5/common/bf16_host.h
$(BUILD)/instructor/judge_bf16gemm_kernels.o: instructor/judge_bf16gemm_kernels.cu instructor/judge_bf16gemm_kernels.h \
  $(NVCC_STAMP)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  NVCC    $<")
	$(Q)$(NVCC) $(NVFLAGS) -Iinstructor -c $< -o $@
$(BUILD)/instructor/judge_w54.o $(BUILD)/instructor/judge_w54_runner.o: instructor/judge_w54.h instructor/judge_bf16gemm.h
$(JUDGE_W54): $(JUDGE_BF16GEMM_OBJ)
$(JUDGE_W54): private LDCUDA += -lcublas
$(eval $(call yard_runner,54,instructor/judge_bf16gemm_yard_runner.c,instructor/judge_bf16gemm.h instructor/judge.h phase5/common/bf16_host.h,-Iinstructor -Iphase5/common,,-lcublas))
$(eval $(call judge_rules,55,phase5/week55,ws_gemm))
# week 55's judge (as week 54's): judge_bf16gemm.c's checks with the grid entry, its yardstick timed
# through week 54's yard runner (cublasGemmEx BF16 TN, no student object); its runner links week 54's
# reference objects as the week's test program does (week.txt's uses:: ws_gemm.o calls wgmma_desc_bf16_sw128)
$(foreach i,$(IMPLS),$(BUILD)/phase5/week55/$(i)/judge-runner): $(call used_objs,phase5/week55)
$(BUILD)/instructor/judge_w55.o: CFLAGS += -Iphase5/common
$(BUILD)/instructor/judge_w55.o $(BUILD)/instructor/judge_w55_runner.o: instructor/judge_w55.h instructor/judge_bf16gemm.h
$(JUDGE_W55): $(JUDGE_BF16GEMM_OBJ)
$(JUDGE_W55): private LDCUDA += -lcublas
$(JUDGE_W55): | $(JUDGE_W54_YARD)
judge-w55: $(JUDGE_W54_YARD)
$(eval $(call judge_rules,58,phase6/week58,w4a16_decode w4a16_prefill))
# week 58's judge: the test's cases and
# checks copied (the test keeps them in its body), the given quantiser (support/w4_quant.h, header only)
# included; its own kernels (judge_w58_kernels.cu: the timed decode's inputs from a seed and the exact check
# of every timed output, linked into judge-w58 alone); COPY, and cuBLAS (w58.prefill-speed's yardstick and its
# full check's reference) in the judge's own process
$(BUILD)/instructor/judge_w58.o: instructor/judge_w58.h instructor/judge_w58_kernels.h phase6/week58/support/w4_quant.h
$(BUILD)/instructor/judge_w58_runner.o: instructor/judge_w58.h
$(BUILD)/instructor/judge_w58_kernels.o: instructor/judge_w58_kernels.cu instructor/judge_w58_kernels.h \
  instructor/judge_w58.h common/include/wb_hd.h $(NVCC_STAMP)
	@mkdir -p $(@D)
	$(if $(Q),@echo "  NVCC    $<")
	$(Q)$(NVCC) $(NVFLAGS) -Iinstructor -c $< -o $@
$(JUDGE_W58): $(BUILD)/instructor/judge_w58_kernels.o
$(JUDGE_W58): private LDCUDA += -lcublas
# the weeks that have a judge (instructor/grade_run.c's JUDGES table: keep the two one)
JUDGED_WEEKS := phase0/week01 phase0/week02 phase0/week03 phase0/week04
JUDGED_WEEKS += phase1/week05
JUDGED_WEEKS += phase1/week06
JUDGED_WEEKS += phase1/week07
JUDGED_WEEKS += phase1/week08
JUDGED_WEEKS += phase2/week09
JUDGED_WEEKS += phase2/week10
JUDGED_WEEKS += phase2/week11
JUDGED_WEEKS += phase2/week12
JUDGED_WEEKS += phase3/week13
JUDGED_WEEKS += phase3/week15
JUDGED_WEEKS += phase4/week18
JUDGED_WEEKS += phase4/week19
JUDGED_WEEKS += phase5/week21
JUDGED_WEEKS += phase5/week22
JUDGED_WEEKS += phase5/week23
JUDGED_WEEKS += phase5/week24
JUDGED_WEEKS += phase5/week25
JUDGED_WEEKS += phase5/week26
JUDGED_WEEKS += phase5/week27
JUDGED_WEEKS += phase5/week28
JUDGED_WEEKS += phase6/week29
JUDGED_WEEKS += phase6/week30
JUDGED_WEEKS += phase6/week31
JUDGED_WEEKS += phase6/week32
JUDGED_WEEKS += phase6/week33
JUDGED_WEEKS += phase6/week34
JUDGED_WEEKS += phase6/week35
JUDGED_WEEKS += phase6/week36
JUDGED_WEEKS += phase6/week37
JUDGED_WEEKS += phase6/week38
JUDGED_WEEKS += phase7/week39
JUDGED_WEEKS += phase7/week40
JUDGED_WEEKS += phase7/week41
JUDGED_WEEKS += phase7/week42
JUDGED_WEEKS += phase5/week53
JUDGED_WEEKS += phase5/week54
JUDGED_WEEKS += phase5/week55
JUDGED_WEEKS += phase6/week57
JUDGED_WEEKS += phase6/week59
JUDGED_WEEKS += phase6/week60
JUDGED_WEEKS += phase6/week62
JUDGED_WEEKS += phase3/week14
JUDGED_WEEKS += phase5/week56
JUDGED_WEEKS += phase6/week58
JUDGED_WEEKS += phase6/week61
JUDGED_WEEKS += phase4/week17
JUDGED_WEEKS += phase4/week20
JUDGED_WEEKS += phase3/week16
judge_target = judge-w$(patsubst week%,%,$(notdir $(1)))

# Tuning programs for single weeks, each beside its probe and dated notes.
# $(eval $(call tune_nvflags,VAR,SWEEP-GOALS,EXAMPLE-BUILD)): VAR='-D...' on make's
# command line with any goal but the sweeps builds that week's code with those
# macros, in a build folder of its own (objects built without them would be
# linked as they are).
define tune_nvflags
ifneq ($$($(1)),)
ifneq ($$(filter-out $(2),$$(MAKECMDGOALS)),)
ifeq ($$(BUILD),build)
$$(error $(1)=$$($(1)) needs a build folder of its own (BUILD=$(3)): objects built without the macros would be linked as they are)
endif
NVFLAGS += $$($(1))
endif
endif
endef
-include $(sort $(wildcard instructor/tune/*/tune.mk))

# The tests are scripts (instructor/tests/*.sh, each runnable alone).
instructor-test:
	$(Q)bash instructor/tests/run.sh


else
release grade grade-collect grade-quiz grade-fixtures grade-fixtures2 grade-fixtures-py grade-class30 quiz-seal instructor-test:
	@echo ">>> '$@' is an instructor tool; this copy of the workbook does not have them."; exit 2
endif
