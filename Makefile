PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-quick lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

# The main job: classify the sample image with the ResNet-14 the repository ships (offline).
demo: $(STAMP)
	$(BIN)/vision predict --model resnet14 --weights shapes vision/data/sample_shapes.png

# Lint and the whole test suite, on every core.
test: lint
	$(BIN)/pytest -n auto -q

# The quick subset: everything not marked slow.
test-quick: lint
	$(BIN)/pytest -n auto -q -m 'not slow'

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) *.egg-info
