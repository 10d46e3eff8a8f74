# rattus-rules — one command to set up and demo, one to set up and test.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup browser node demo test lint typecheck pytest docs bench bench-records bench-kit golden soak soak-props soak-games soak-scharf plant mutate parser study strength study-strong clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	@echo "setup: making $(VENV) and installing the dependencies (about a minute; pip names each package)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --progress-bar on -e ".[dev]"
	rm -rf .mypy_cache  # installed packages changed: mypy must not trust its old cache
	touch $(STAMP)

## browser: Debian's Chromium for the browser tests, if it is missing and apt-get may be run (as root or
## through sudo without a password); otherwise say so: the browser tests then skip with that reason
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; elif sudo -n true 2>/dev/null; then SUDO=sudo; else SUDO=none; fi; \
	  if [ "$$SUDO" = none ] || ! command -v apt-get >/dev/null 2>&1; then \
	    echo "make browser: no chromium, and apt-get cannot be run here: the browser tests will skip"; \
	  else \
	    $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q chromium; \
	  fi; }

## node: Debian's Node.js for the tests of the kit's Node client (tests/rattus/test_node_client.py), if `node` is
## missing and apt-get may be run (as root or through sudo without a password); otherwise say that those tests skip
node:
	@command -v node >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; elif sudo -n true 2>/dev/null; then SUDO=sudo; else SUDO=none; fi; \
	  if [ "$$SUDO" = none ] || ! command -v apt-get >/dev/null 2>&1; then \
	    echo "make node: no node, and apt-get cannot be run here: the Node.js client tests will skip"; \
	  else \
	    $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q nodejs; \
	  fi; }

## demo: check the spec, then play one 4-player game with random players
demo: setup
	$(BIN)/rattus check
	$(BIN)/rattus play --players 4 --seed 1

## test: lint, type-check, run the whole test suite (with Chromium and Node.js where they can be installed) and
## build the docs
test: setup browser node lint typecheck pytest docs

lint: setup
	$(BIN)/ruff check interpreter rattus_rules tests bench docs/conf.py docs/_ext

typecheck: setup
	$(BIN)/mypy

pytest: setup
	$(BIN)/python -m pytest

## docs: build the documentation (generated from the spec) into docs/_build/html; warnings are errors
docs: setup
	$(BIN)/sphinx-build -E -W --keep-going -q -b html docs docs/_build/html

## bench: each shipped game on the C back end, the Python back end and its hand-written model side by side
## (games/s and ratios), perft, records/s, loads and first builds by back end (bench/RESULTS.md)
bench: setup
	$(BIN)/python bench/bench.py

## bench-records: records validated per second (omniscient, players-eye) against replaying the same games,
## for each game on 100 seeded random games (bench/records.py --help)
bench-records: setup
	$(BIN)/python bench/records.py

## bench-kit: the conformance kit checked against `rattus serve` and against the hand-written reference model
## behind a protocol adapter (tests/rattus/model_engine.py), CPU time side by side (about a minute)
bench-kit: setup
	$(BIN)/python bench/kit.py

## soak: explore beyond CI: soak-props, then soak-games (each can be run alone)
soak: soak-props soak-games

## soak-props: the property tests and spec fuzzers (every Hypothesis test) under the `soak` profile: a random
## seed (printed; SEED=N replays a run) and SOAK_FACTOR (default 10) times each test's examples
ifeq ($(origin SEED),undefined)  # drawn once per make run (a recursive variable would draw at every use)
SEED := $(shell od -An -N4 -tu4 /dev/urandom | tr -d ' ')
endif
soak-props: setup
	@echo "make soak-props: seed $(SEED), $(or $(SOAK_FACTOR),10)x the examples (SEED=$(SEED) replays this run)"
	HYPOTHESIS_PROFILE=soak SOAK_FACTOR=$(or $(SOAK_FACTOR),10) $(BIN)/python -m pytest -q -m hypothesis --continue-on-collection-errors \
		--hypothesis-seed=$(SEED)

## soak-games: many random games (2-4 players, random switch settings), every invariant checked after every step
soak-games: setup
	$(BIN)/python bench/soak.py --games $(or $(GAMES),2000)

## soak-scharf: every combination of Ratten Scharf's switches (64), SCHARF_GAMES random games each (default
## 20,000, seeds 0 to SCHARF_GAMES-1) on the C back end, one process (SOAK_JOBS); none may stop with a rule error.
## A failing game is printed with the command that replays it; the summary goes to bench/soak-ratten-scharf.txt
## (rewritten after each round of 500 seeds over every combination, so a run stopped early says how far it got;
## SCHARF_FIRST_SEED=N takes it up from seed N, with SCHARF_GAMES the games still to play)
SCHARF_GAMES ?= 20000
SCHARF_FIRST_SEED ?= 0
soak-scharf: setup
	RULES_BACKEND=c $(BIN)/python -m rattus_rules.tools.bench.combinations --game ratten_scharf \
		--games $(SCHARF_GAMES) --first-seed $(SCHARF_FIRST_SEED) --jobs $(or $(SOAK_JOBS),1) \
		--out bench/soak-ratten-scharf$(if $(filter-out 0,$(SCHARF_FIRST_SEED)),-from-$(SCHARF_FIRST_SEED)).txt

## plant: plant each known bug (bench/plant.py: engine, tools, spec) in a copy and check that its tests catch it
plant: setup
	$(BIN)/python bench/plant.py $(if $(ONLY),--only $(ONLY))

## mutate: change the spec in small ways and count how many changes the tests notice (takes a while)
mutate: setup
	$(BIN)/python bench/mutate.py --golden

## study: which readings matter: paired games per switch option at 2, 3 and 4 players, on all cores
## (docs/study.md and docs/study/: JSON, CSV, plots, report.html); then the same for Ratten Scharf
## (docs/study-ratten-scharf.md); STUDY_GAMES / STUDY_GREEDY seeds per player count
STUDY_GAMES ?= 300
STUDY_GREEDY ?= 20
study: setup
	$(BIN)/rattus study --players 2 3 4 --agent random:$(STUDY_GAMES) --agent greedy:$(STUDY_GREEDY) \
		--out docs/study --markdown docs/study.md
	$(BIN)/rattus --game ratten_scharf study --agent random:$(STUDY_GAMES) --agent greedy:$(STUDY_GREEDY) \
		--out docs/study-ratten-scharf --markdown docs/study-ratten-scharf.md

## strength: how strong the ISMCTS player is (docs/strength.md and .json): tournaments of ismcts-30 and
## ismcts-100 against the greedy and the random player at 2, 3 and 4 players, in every seat rotation; the
## page states its run time (about 40 minutes on a busy 2-core machine; STRENGTH_GAMES seeds per line-up)
STRENGTH_GAMES ?= 16
STRENGTH_SCHARF_GAMES ?= 12
strength: setup
	$(BIN)/rattus strength --players 2 3 4 --budgets 30 100 --games $(STRENGTH_GAMES) --markdown docs/strength.md
	$(BIN)/rattus --game ratten_scharf strength --budgets 30 100 --games $(STRENGTH_SCHARF_GAMES) \
		--markdown docs/strength-ratten-scharf.md

## study-strong: which readings matter to a strong player: the paired study with the ISMCTS player (STRONG)
## for every switch of Rattus at 4 players and of Ratten Scharf, then one recorded game per reading that
## changed a winner (docs/study-strong*.md, docs/decisive*.md, records in docs/decisive/); each page
## states its run time.  A decision of Ratten Scharf has hundreds of options, so its search is slower per
## iteration: its study uses a smaller budget and fewer seeds (STRONG_SCHARF, STRONG_SCHARF_GAMES)
STRONG ?= ismcts-100
STRONG_GAMES ?= 6
STRONG_SCHARF ?= ismcts-30
STRONG_SCHARF_GAMES ?= 6
study-strong: setup
	$(BIN)/rattus study --players 4 --agent $(STRONG):$(STRONG_GAMES) --chunk 1 --out docs/study-strong \
		--markdown docs/study-strong.md --title "Which readings matter to a strong player"
	rm -rf docs/decisive/rattus
	$(BIN)/rattus decisive docs/study-strong/study.json --out docs/decisive/rattus --markdown docs/decisive.md
	$(BIN)/rattus --game ratten_scharf study --agent $(STRONG_SCHARF):$(STRONG_SCHARF_GAMES) \
		--out docs/study-strong-ratten-scharf --markdown docs/study-strong-ratten-scharf.md \
		--title "Which readings matter to a strong player"
	rm -rf docs/decisive/ratten_scharf
	$(BIN)/rattus --game ratten_scharf decisive docs/study-strong-ratten-scharf/study.json \
		--out docs/decisive/ratten_scharf --markdown docs/decisive-ratten-scharf.md

## golden: rewrite conformance/ and conformance/ratten_scharf/ (perft vectors, recorded games, golden
## playthroughs) after a deliberate rule change
golden: setup
	$(BIN)/python -m rattus_rules.tools.kit.conformance --write conformance
	$(BIN)/python -m rattus_rules.tools.kit.conformance --write conformance --game ratten_scharf

## parser: rebuild the LALR parser shipped beside the grammar (after a grammar change)
parser: setup
	$(BIN)/python -c "from interpreter.parser import write_shipped_parser; print(write_shipped_parser())"

clean:
	rm -rf $(VENV) build dist docs/_build .pytest_cache .mypy_cache .ruff_cache
