PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo demo-shapes test test-quick test-gpu lint mutation cupy-namespace clean

# The sample photo that matplotlib (a dependency) ships.
GRACE_HOPPER = $(BIN)/python -c "import matplotlib.cbook as c; print(c.get_sample_data('grace_hopper.jpg', asfileobj=False))"

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet -e '.[test,dist]'
	touch $(STAMP)

# The main job: find the faces and their landmarks in a photo with MTCNN's published weights
# (fetched once with pip from the facenet-pytorch wheel), printed and drawn into demo/.
demo: $(STAMP)
	$(BIN)/vision predict --model mtcnn --weights facenet-pytorch "$$($(GRACE_HOPPER))" --out demo

# Offline: classify the sample image with the ResNet-14 the repository ships.
demo-shapes: $(STAMP)
	$(BIN)/vision predict --model resnet14 --weights shapes vision/data/sample_shapes.png

# Lint and the whole test suite, on every core; the 25 slowest tests are listed at the end (the
# suite must stay under 15 minutes on 2 cores).
test: lint
	$(BIN)/pytest -n auto -q --durations=25

# The quick subset: everything not marked slow.
test-quick: lint
	$(BIN)/pytest -n auto -q -m 'not slow'

# On a machine with an NVIDIA GPU: the GPU's tests (pytest -m gpu: every op, model, graph and
# script on '@cupy:0') and the GPU benchmarks, with a report in gpu-report/.
test-gpu: $(STAMP)
	$(BIN)/pip install --quiet -e '.[test,gpu]'
	.ci/gpu-report gpu-report $(BIN)/python

# Mutation testing of one module with its own tests (slow, not in CI; tests/MUTATION.md), e.g.
# make mutation MODULE=vision/utils/bbox/ TESTS=tests/vision/utils/bbox/
mutation: $(STAMP)
	@test -n "$(MODULE)" -a -n "$(TESTS)" || { echo 'usage: make mutation MODULE=path/to/module.py TESTS=tests/...'; exit 2; }
	$(BIN)/python -c 'import mutmut' 2>/dev/null || $(BIN)/pip install --quiet -e '.[mutation]'
	$(BIN)/python scripts/mutation.py $(MODULE) $(TESTS) $(if $(FRESH),--fresh)

# Derive framework/testing/cupy_namespace.json (the names and signatures the emulated device
# offers) from CuPy itself, in a venv of its own: CuPy imports without a GPU, and it is only
# the 'gpu' extra of the project.
CUPY_VENV ?= /tmp/cupy-namespace-venv
cupy-namespace:
	test -x $(CUPY_VENV)/bin/python || $(PYTHON) -m venv $(CUPY_VENV)
	$(CUPY_VENV)/bin/pip install --quiet cupy-cuda12x
	$(CUPY_VENV)/bin/python framework/testing/make_cupy_namespace.py

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) *.egg-info demo
