"""The README's quick start, CI and the package metadata agree, and the test command says how many tests passed."""

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).parent.parent


def quick_start_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Quick start"):]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "the quick start has a sh block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_the_quick_start_is_two_commands_and_the_first_makes_a_virtual_environment():
    # before: `python3 -m pip install ...`, refused by Debian's system Python (PEP 668)
    install, tests = quick_start_commands()
    steps = [step.strip() for step in install.split("&&")]
    assert steps[0].startswith("python3 -m venv ") and steps[1].startswith(". ") and "activate" in steps[1]
    assert steps[2].startswith('pip install ".[test]"') and steps[3] == "doodle deal --players 3"
    assert tests.startswith(".venv/bin/python -m pytest")


def test_ci_runs_the_readmes_test_command():
    _, tests = quick_start_commands()
    assert tests in (ROOT / ".ci" / "run").read_text().splitlines()


def test_the_distribution_has_its_own_name_and_keeps_the_command():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == "patchwork-doodle"  # "doodle" on the package index is another project
    assert project["scripts"] == {"doodle": "doodle.cli:main"}
    assert f"**`{project['name']}`**" in (ROOT / "README.md").read_text()


def test_pytest_q_still_prints_how_many_passed(tmp_path):
    # before: addopts = "-q" plus a habitual -q made -qq, which drops the "N passed" line
    (tmp_path / "test_one.py").write_text("def test_one():\n    pass\n")
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-c", str(ROOT / "pyproject.toml"),
                             "--rootdir", str(tmp_path), "-p", "no:cacheprovider", str(tmp_path / "test_one.py")],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"^1 passed in ", result.stdout, re.M), result.stdout


def test_the_quick_start_names_no_test_count_that_goes_stale():
    # before: "ends with a line such as `518 passed, 1 skipped in 320s`", true of one day's suite only
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Quick start"):readme.index("\n## ", readme.index("## Quick start") + 1)]
    assert not re.search(r"\d+ passed", section), "say `N passed`: the count changes with every test added"


def test_the_readme_gives_the_checks_search_budget_the_code_has():
    # before: the README said 50,000 steps while doodle.game.checks stops at 20,000
    from doodle.game.checks import EXPLAIN_NODE_BUDGET

    assert f"bounded search ({EXPLAIN_NODE_BUDGET:,} steps" in (ROOT / "README.md").read_text().replace("\n", " ")
