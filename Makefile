# CameraSun — build, run and test. `make run` and `make test` each set up what they need.

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN := .build/release/camerasun

# Release builds target the host's vector unit when it is at least Haswell-class (AVX2, FMA,
# BMI2): the sensor read-out and metering kernels then run 8 floats wide instead of 4, about 1.5–2×
# faster (BENCHMARKS.md). Such a binary needs such a CPU; `make build NATIVE_FLAGS=` builds a
# portable one.
NATIVE_FLAGS ?= $(shell [ "$$(uname -m)" = x86_64 ] && grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo \
	&& grep -qw bmi2 /proc/cpuinfo && echo "-Xswiftc -target-cpu -Xswiftc haswell -Xcc -march=haswell")

# Debian packages the build and the tests need (FFmpeg's libraries with libx264 for recordings, and ffmpeg/ffprobe
# to read them back in the tests; the kernel's linux/videodev2.h for V4L2; nginx with its RTMP module as the live-push tests'
# streaming server, which they start themselves on a free port); the browser tests use chromium, chromium-driver and a
# venv (python3-venv), and fonts-wqy-microhei so that their screenshots of ?lang=zh show Chinese; the DNG writer builds on
# libtiff (libtiff-dev), and its tests read the DNGs back with LibRaw's raw-identify and dcraw_emu (libraw-bin). The HDR
# bracket-fusion evaluation runs enfuse (enfuse) beside OpenCV's Mertens fusion as a peer, and its MEF-SSIM tests check
# the Swift index against a numpy one (python3-numpy, Debian's, beside python3-opencv).
APT_PACKAGES := pkg-config libstb-dev python3-opencv python3-numpy enfuse libsqlite3-dev sqlite3 libturbojpeg0-dev libexif-dev libimage-exiftool-perl libmicrohttpd-dev \
	libavcodec-dev libavformat-dev libavutil-dev libswscale-dev libswresample-dev libx264-dev ffmpeg libasound2-dev \
	libfreetype-dev fonts-dejavu-core linux-libc-dev nginx libnginx-mod-rtmp \
	chromium chromium-driver python3-venv fonts-wqy-microhei libtiff-dev libraw-bin

# The browser tests' Python packages (Tests/Browser/requirements.txt) live in a venv of Debian's
# python3 (the one python3-venv serves, whatever `python3` is first on PATH).
BROWSER_VENV := .venv-browser
BROWSER_REQUIREMENTS := Tests/Browser/requirements.txt
BROWSER_ARTIFACTS := .build/artifacts/browser
# The DNG tests' Python peer, rawpy (LibRaw with numpy: Tests/Python/requirements.txt), in a venv of its own.
PYTHON_TEST_VENV := .venv-test
PYTHON_TEST_REQUIREMENTS := Tests/Python/requirements.txt

.PHONY: deps build run test test-tsan fuzz fuzz-smoke fuzz-build browser-test bench soak scenes ae-report clean

## deps: install the Debian packages the build and tests need and the browser and DNG tests' venvs (idempotent; sudo when not root)
deps:
	@missing=$$(for p in $(APT_PACKAGES); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	    echo "make deps: installing" $$missing; \
	    $(SUDO) apt-get update -qq && \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi
	@if ! cmp -s $(BROWSER_REQUIREMENTS) $(BROWSER_VENV)/requirements.txt; then \
	    echo "make deps: installing the browser tests' Python packages into $(BROWSER_VENV)"; \
	    /usr/bin/python3 -m venv $(BROWSER_VENV) && \
	    $(BROWSER_VENV)/bin/pip install --quiet --disable-pip-version-check -r $(BROWSER_REQUIREMENTS) && \
	    cp $(BROWSER_REQUIREMENTS) $(BROWSER_VENV)/requirements.txt; \
	fi
	@if ! cmp -s $(PYTHON_TEST_REQUIREMENTS) $(PYTHON_TEST_VENV)/requirements.txt; then \
	    echo "make deps: installing the DNG tests' Python packages into $(PYTHON_TEST_VENV)"; \
	    /usr/bin/python3 -m venv $(PYTHON_TEST_VENV) && \
	    $(PYTHON_TEST_VENV)/bin/pip install --quiet --disable-pip-version-check -r $(PYTHON_TEST_REQUIREMENTS) && \
	    cp $(PYTHON_TEST_REQUIREMENTS) $(PYTHON_TEST_VENV)/requirements.txt; \
	fi

## build: the release binaries .build/release/camerasun and, beside it, camerasun-bench (the benchmarks
## `camerasun bench` runs: a program of their own, so that camerasun links none of their peers and test doubles)
build: deps
	$(SWIFT) build -c release --product camerasun $(NATIVE_FLAGS)
	$(SWIFT) build -c release --product camerasun-bench $(NATIVE_FLAGS)

## run: the main job: the browser viewfinder (camerasun serve) on the default source,
## sim:backlit-portrait; prints the URL to open, Ctrl-C stops it
run: build
	$(BIN) serve

## test: every test suite, then each fuzz harness for a few seconds on its saved corpus and
## regression inputs (fuzz-smoke). No test asserts how fast anything is: speed is `make bench`'s.
# The tests build optimized (release, with -enable-testing for @testable imports, apart in .build/test):
# that is the code users run, and in a debug build the simulated camera renders a 1080p frame in seconds,
# not milliseconds, so the suites spend minutes rendering. The viewfinder's acceptance suite runs the
# camerasun binary of that build (CAMERASUN_RELEASE_BINARY).
# One pass, every suite in parallel, at most TEST_WIDTH tests at a time (two per core): Swift Testing
# otherwise starts every test at once, and the realtime ones (a camera at 30 fps, a live push, a
# server's answers) then wait their turn on the concurrency pool behind hundreds of others'
# frames — a camera sent 22 frames in 30 s. Blocking waits run on threads of their own
# (`onOwnThread`), never on the pool.
TEST_BUILD = -c release -Xswiftc -enable-testing $(NATIVE_FLAGS) --scratch-path .build/test
TEST_WIDTH ?= $(shell echo $$(( 2 * $$(nproc) )))
test: deps
	SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) CAMERASUN_RELEASE_BINARY=$(CURDIR)/.build/test/release/camerasun \
	  $(SWIFT) test $(TEST_BUILD)
	$(MAKE) fuzz-smoke

## test-tsan: every test suite under ThreadSanitizer, built apart in .build/tsan, one test at a time:
## instrumented code runs several times slower, and the viewfinder's latency tests fail when the
## busiest suites hold the concurrency pool beside them
test-tsan: deps
	$(SWIFT) test --sanitize=thread --scratch-path .build/tsan --no-parallel

# Fuzzing (Fuzz/README.md): libFuzzer harnesses for the parsers of untrusted bytes, built with
# AddressSanitizer apart in .build/fuzz. Each run reads the saved corpus Fuzz/Corpus/<harness> and the
# crashes already fixed, Fuzz/Regressions/<harness>, and adds what it finds to a working corpus in
# .build/fuzz/corpus/<harness>, so the committed corpus only changes when chosen; a crashing input is
# written to .build/artifacts/fuzz/<harness>/ and fails the run. Swift's own crash backtracer is off: under
# AddressSanitizer it hangs instead of letting libFuzzer save the input.
FUZZ_HARNESSES := radiance-hdr request-target control-bodies jpeg-structure
FUZZ_SECONDS ?= 300
FUZZ_SMOKE_SECONDS ?= 3
FUZZ_ARTIFACTS := .build/artifacts/fuzz
# $(1): the build folder, $(2): seconds per harness.
FUZZ_RUN = for harness in $(FUZZ_HARNESSES); do \
	    mkdir -p .build/fuzz/corpus/$$harness $(FUZZ_ARTIFACTS)/$$harness && \
	    SWIFT_BACKTRACE=enable=no $(1)/release/fuzz-$$harness -max_total_time=$(2) -timeout=10 -print_final_stats=1 -dict=Fuzz/Dictionaries/$$harness.dict \
	      -artifact_prefix=$(FUZZ_ARTIFACTS)/$$harness/ .build/fuzz/corpus/$$harness Fuzz/Corpus/$$harness \
	      $$(ls -d Fuzz/Regressions/$$harness 2>/dev/null) || exit 1; \
	done
FUZZ_BUILD = $(SWIFT) build --package-path Fuzz --scratch-path $(1) -c release $(2) -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld

## fuzz-build: the fuzz harnesses, optimized and instrumented for libFuzzer and AddressSanitizer (.build/fuzz/release/fuzz-*)
fuzz-build: deps
	$(call FUZZ_BUILD,.build/fuzz,)

## fuzz: each harness for FUZZ_SECONDS seconds (default 5 minutes): `make fuzz FUZZ_SECONDS=60`
fuzz: fuzz-build
	@$(call FUZZ_RUN,.build/fuzz,$(FUZZ_SECONDS))

## fuzz-smoke: each harness for FUZZ_SMOKE_SECONDS seconds on the saved corpus and every regression input (part of
## `make test`), built unoptimized in .build/fuzz-smoke: that build takes half the time, and the seconds are for
## replaying what is saved, not for finding more
fuzz-smoke: deps
	$(call FUZZ_BUILD,.build/fuzz-smoke,-Xswiftc -Onone)
	@$(call FUZZ_RUN,.build/fuzz-smoke,$(FUZZ_SMOKE_SECONDS))

## browser-test: the viewfinder page in headless Chromium (Tests/Browser) against the release `camerasun serve`,
## started on a free port with a library of its own, then again with a second (front) camera; the layout is
## checked at four window sizes; `make browser-test VIEWFINDER_URL=http://127.0.0.1:8080/
## [VIEWFINDER_TOKEN=T]` tests a running one instead. Screenshots go to .build/artifacts/browser/.
ifdef VIEWFINDER_URL
browser-test: deps
	@mkdir -p $(BROWSER_ARTIFACTS)
	$(BROWSER_VENV)/bin/python Tests/Browser/viewfinder_test.py --artifacts $(BROWSER_ARTIFACTS) $(VIEWFINDER_URL) $(VIEWFINDER_TOKEN)
else
browser-test: build
	@mkdir -p $(BROWSER_ARTIFACTS)
	$(BROWSER_VENV)/bin/python Tests/Browser/viewfinder_test.py --artifacts $(BROWSER_ARTIFACTS) --serve $(BIN)
endif

## bench: performance figures beside their peers, and the closed-loop AE table (see BENCHMARKS.md)
bench: build
	$(BIN) bench sim
	$(BIN) bench metering
	$(BIN) bench photo
	$(BIN) bench pipeline --frames 300
	$(BIN) bench server
	$(BIN) bench fusion
	$(BIN) bench startup
	$(BIN) ae-eval --json

## soak: `camerasun serve` for SOAK_MINUTES (default 30) with two viewers, a photo a minute, a take every five minutes
## and a stream to nginx-rtmp that loses its server every ten; RSS, threads and fds each minute (Tests/Soak/soak.py);
## fails on growth over 5% after the first five minutes. Not part of `make test`. Figures in BENCHMARKS.md.
SOAK_MINUTES ?= 30
soak: build
	@mkdir -p .build/artifacts
	/usr/bin/python3 Tests/Soak/soak.py --binary $(BIN) --minutes $(SOAK_MINUTES) --json .build/artifacts/soak.json

## scenes: download Debian's CC0 Blender HDRIs and convert them to .hdr in the cache
scenes:
	scripts/fetch-scenes.sh

## ae-report: the closed-loop AE evaluation of the built-in scenes, the HDRI views and the real photographs in eval/ (each
## subject with why it was chosen), as a table and the HTML report ae-report.html
ae-report: build scenes
	$(BIN) ae-eval --scenes all --views eval/hdr-views.txt --views eval/hdr-held-out.txt \
	  --views eval/hdr-held-out-2.txt --views eval/hdr-held-out-3.txt --views eval/real-scenes.txt --report ae-report.html

clean:
	rm -rf .build
