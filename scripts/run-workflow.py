#!/usr/bin/env python3
"""Runs a GitHub workflow job's `run:` steps, or the composite action's (action.yml), here, in a
clean clone of HEAD with nothing beside it (no ../shared), as a runner would, so a broken step
shows up before a runner sees it.

    python3 scripts/run-workflow.py [WORKFLOW] [JOB]     # default: ci.yml linux
    python3 scripts/run-workflow.py --list               # each workflow's jobs and steps
    python3 scripts/run-workflow.py --action [--with NAME=VALUE]... [--action-ref REF] [--workspace DIR]

`uses:` steps (checkout, setup-python, cache) are what the clone and this machine already provide;
they are listed, not run. As a runner does: the workflow's, the job's and the step's `env` are set,
with `CI`, `GITHUB_ACTIONS`, `RUNNER_OS`, `RUNNER_ARCH`, `RUNNER_TEMP`, `GITHUB_WORKSPACE` and the
`GITHUB_OUTPUT`, `GITHUB_ENV`, `GITHUB_PATH` and `GITHUB_STEP_SUMMARY` files (what a step writes
there reaches the later steps); `${{ ... }}` in `run`, `env`, `working-directory` and `if` is
evaluated (contexts `inputs`, `github`, `runner`, `steps`, `env`, `matrix`, `secrets`: a value
this machine lacks, such as a secret or a matrix entry, is empty; functions `success()`,
`always()`, `failure()`, `cancelled()`); a step's `if:` decides whether it runs, a failed step
skips the later ones whose `if:` does not ask for them.

--action runs action.yml of the clone (the action's folder, `github.action_path`) with the inputs'
defaults and `--with` values, in the workspace (default: the clone), and prints its outputs.
Exit status: the first failing step's, else 0.
"""
import os
import platform
import re
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:
    sys.exit("run-workflow: needs PyYAML (scripts/bootstrap.sh installs it: python3 -m pip install pyyaml)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKFLOWS = os.path.join(ROOT, ".github", "workflows")
TOKEN = re.compile(r"\s*(?:(?P<string>'(?:[^']|'')*')|(?P<number>\d+(?:\.\d+)?)|(?P<op>&&|\|\||==|!=|<=|>=|[!<>()\[\].,*])|(?P<name>[A-Za-z_][A-Za-z0-9_-]*))")


class Expression:
    """GitHub's expression language, the part workflows here use: literals, context paths,
    `!`, `&&`, `||`, comparisons (strings case-insensitively) and the status functions."""

    def __init__(self, text, contexts, failed):
        self.tokens, position = [], 0
        text = text.strip()
        while position < len(text):
            match = TOKEN.match(text, position)
            if not match or match.end() == position:
                raise ValueError(f"cannot read `{text[position:]}` in `{text}`")
            self.tokens.append((match.lastgroup, match.group(match.lastgroup)))
            position = match.end()
        self.index, self.contexts, self.failed, self.text = 0, contexts, failed, text

    def value(self):
        result = self.either()
        if self.index != len(self.tokens):
            raise ValueError(f"unexpected `{self.tokens[self.index][1]}` in `{self.text}`")
        return result

    def peek(self):
        return self.tokens[self.index][1] if self.index < len(self.tokens) else None

    def take(self, expected=None):
        kind, token = self.tokens[self.index]
        if expected is not None and token != expected:
            raise ValueError(f"expected `{expected}`, found `{token}` in `{self.text}`")
        self.index += 1
        return kind, token

    def either(self):
        left = self.both()
        while self.peek() == "||":
            self.take()
            right = self.both()
            left = left if truthy(left) else right
        return left

    def both(self):
        left = self.compare()
        while self.peek() == "&&":
            self.take()
            right = self.compare()
            left = right if truthy(left) else left
        return left

    def compare(self):
        left = self.unary()
        if self.peek() in ("==", "!=", "<", ">", "<=", ">="):
            operator = self.take()[1]
            right = self.unary()
            a, b = (left.casefold(), right.casefold()) if isinstance(left, str) and isinstance(right, str) else (number(left), number(right))
            return {"==": a == b, "!=": a != b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[operator]
        return left

    def unary(self):
        if self.peek() == "!":
            self.take()
            return not truthy(self.unary())
        return self.primary()

    def primary(self):
        kind, token = self.take()
        if token == "(":
            result = self.either()
            self.take(")")
            return result
        if kind == "string":
            return token[1:-1].replace("''", "'")
        if kind == "number":
            return float(token)
        if kind != "name":
            raise ValueError(f"unexpected `{token}` in `{self.text}`")
        if token in ("true", "false", "null"):
            return {"true": True, "false": False, "null": None}[token]
        if self.peek() == "(":
            functions = {"success": not self.failed, "failure": self.failed, "always": True, "cancelled": False}
            if token not in functions:
                raise ValueError(f"`{token}()` is not evaluated here (in `{self.text}`)")
            self.take("(")
            self.take(")")
            return functions[token]
        value = self.contexts.get(token)
        while self.peek() in (".", "["):
            if self.take()[1] == ".":
                key = self.take()[1]
            else:
                key = str(self.either())
                self.take("]")
            value = value.get(key) if isinstance(value, dict) else None
        return value


def truthy(value):
    return value not in (None, False, "", 0, 0.0)


def number(value):
    if value is None or isinstance(value, bool):
        return float(bool(value))
    if isinstance(value, str) and not value.strip():
        return 0.0  # as GitHub coerces: '' and null are both 0
    try:
        return float(value)
    except (TypeError, ValueError):
        return float("nan")


def text_of(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def substitute(text, contexts, failed):
    return re.sub(r"\$\{\{(.*?)\}\}", lambda match: text_of(Expression(match.group(1), contexts, failed).value()), str(text))


def should_run(condition, contexts, failed):
    if condition is None:
        return not failed
    condition = str(condition).strip()
    if condition.startswith("${{") and condition.endswith("}}"):
        condition = condition[3:-2]
    if not re.search(r"\b(success|always|failure|cancelled)\(", condition):
        condition = f"success() && ({condition})"
    return truthy(Expression(condition, contexts, failed).value())


def read_pairs(path):
    """`NAME=VALUE` lines and `NAME<<DELIMITER` blocks, as GITHUB_OUTPUT and GITHUB_ENV hold them."""
    pairs, lines = {}, open(path, encoding="utf-8").read().splitlines()
    while lines:
        line = lines.pop(0)
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            block = []
            while lines and lines[0] != delimiter:
                block.append(lines.pop(0))
            lines = lines[1:]
            pairs[name] = "\n".join(block)
        elif "=" in line:
            name, value = line.split("=", 1)
            pairs[name] = value
    return pairs


def run_steps(steps, env, contexts, workspace, scratch):
    """Runs the steps as a runner does; returns the first failing step's exit status, else 0."""
    status, paths = 0, []
    files = {name: os.path.join(scratch, name.lower()) for name in ("GITHUB_ENV", "GITHUB_PATH", "GITHUB_STEP_SUMMARY")}
    for path in files.values():
        open(path, "w").close()
    for number, step in enumerate(steps, 1):
        title = step.get("name") or (str(step.get("run", "")).strip().splitlines() or [step.get("uses", "?")])[0]
        contexts["env"] = env
        if not should_run(step.get("if"), contexts, status != 0):
            print(f"-- {number}. {title}: skipped (if: {step.get('if', 'success()')})")
            continue
        if "run" not in step:
            print(f"-- {number}. uses {step.get('uses')}: provided here, not run")
            continue
        print(f"-- {number}. {title}", flush=True)
        output = os.path.join(scratch, f"output-{number}")
        open(output, "w").close()
        step_env = dict(env, GITHUB_OUTPUT=output, **files)
        step_env.update({str(k): substitute(v, contexts, status != 0) for k, v in (step.get("env") or {}).items()})
        step_env["PATH"] = os.pathsep.join(paths + [env.get("PATH", "")])
        folder = os.path.join(workspace, substitute(step.get("working-directory", "."), contexts, status != 0))
        script = substitute(step["run"], contexts, status != 0)
        result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], cwd=folder, env=step_env)
        if "id" in step:
            contexts["steps"][step["id"]] = {"outputs": read_pairs(output), "outcome": "success" if result.returncode == 0 else "failure"}
        env.update(read_pairs(files["GITHUB_ENV"]))
        paths = [line for line in open(files["GITHUB_PATH"], encoding="utf-8").read().splitlines()[::-1] if line]
        if result.returncode != 0:
            print(f"run-workflow: step {number} ({title}) failed with exit {result.returncode}", file=sys.stderr)
            status = status or result.returncode
    summary = open(files["GITHUB_STEP_SUMMARY"], encoding="utf-8").read().splitlines()
    if summary:
        print(f"== job summary: {len(summary)} lines, the first: {summary[0]}")
    return status


def runner_contexts(scratch, workspace):
    machine = {"x86_64": "X64", "amd64": "X64", "aarch64": "ARM64", "arm64": "ARM64"}.get(platform.machine().lower(), platform.machine())
    system = {"Linux": "Linux", "Darwin": "macOS"}.get(platform.system(), platform.system())
    temp = os.path.join(scratch, "runner-temp")
    os.makedirs(temp)
    env = {key: value for key, value in os.environ.items() if not key.startswith("IAPDOCTOR_REQUIRE_")}
    env.update({"CI": "true", "GITHUB_ACTIONS": "true", "RUNNER_OS": system, "RUNNER_ARCH": machine,
                "RUNNER_TEMP": temp, "GITHUB_WORKSPACE": workspace, "GITHUB_SERVER_URL": "https://github.com"})
    contexts = {"runner": {"os": system, "arch": machine, "temp": temp},
                "github": {"workspace": workspace, "server_url": "https://github.com", "token": ""},
                "steps": {}, "secrets": {}, "matrix": {}, "inputs": {}}
    return env, contexts


def clone(scratch):
    folder = os.path.join(scratch, "repo")
    subprocess.run(["git", "clone", "-q", ROOT, folder], check=True)
    head = subprocess.run(["git", "-C", folder, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    return folder, head


def run_action(argv):
    inputs, workspace, ref = {}, None, ""
    while argv:
        option = argv.pop(0)
        if option == "--with" and argv and "=" in argv[0]:
            name, value = argv.pop(0).split("=", 1)
            inputs[name] = value
        elif option == "--workspace" and argv:
            workspace = os.path.abspath(argv.pop(0))
        elif option == "--action-ref" and argv:
            ref = argv.pop(0)
        else:
            print(f"run-workflow: unknown argument `{option}` (see --help)", file=sys.stderr)
            return 2
    with tempfile.TemporaryDirectory(prefix="run-workflow-") as scratch:
        action_path, head = clone(scratch)
        with open(os.path.join(action_path, "action.yml"), encoding="utf-8") as handle:
            action = yaml.safe_load(handle)
        declared = action.get("inputs") or {}
        unknown = sorted(set(inputs) - set(declared))
        if unknown:
            print(f"run-workflow: action.yml has no input {', '.join(unknown)}", file=sys.stderr)
            return 2
        missing = [name for name, spec in declared.items() if spec.get("required") and name not in inputs]
        if missing:
            print(f"run-workflow: action.yml requires the input {', '.join(missing)} (--with NAME=VALUE)", file=sys.stderr)
            return 2
        workspace = workspace or action_path
        env, contexts = runner_contexts(scratch, workspace)
        contexts["inputs"] = {name: inputs.get(name, text_of(spec.get("default"))) for name, spec in declared.items()}
        contexts["github"].update({"action_path": action_path, "action_ref": ref, "action_repository": ""})
        env.update({"GITHUB_ACTION_PATH": action_path, "GITHUB_ACTION_REF": ref})
        print(f"== action.yml of a clean clone of {head} in {action_path}, workspace {workspace}")
        status = run_steps(action["runs"]["steps"], env, contexts, workspace, scratch)
        for name, spec in (action.get("outputs") or {}).items():
            print(f"== output {name}: {substitute(spec.get('value', ''), contexts, status != 0)}")
        print("== the action's steps passed" if status == 0 else f"== the action failed with exit {status}")
    return status


def load(name):
    path = os.path.join(WORKFLOWS, name if name.endswith((".yml", ".yaml")) else name + ".yml")
    with open(path, encoding="utf-8") as handle:
        return path, yaml.safe_load(handle)


def main(argv):
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    if argv[:1] == ["--action"]:
        return run_action(argv[1:])
    if argv[:1] == ["--list"]:
        for name in sorted(os.listdir(WORKFLOWS)):
            _, flow = load(name)
            for job, spec in (flow.get("jobs") or {}).items():
                print(f"{name} {job} ({spec.get('runs-on', '?')})")
                for step in spec.get("steps", []):
                    print(f"  {'run ' if 'run' in step else 'uses'}  {step.get('name') or str(step.get('run', step.get('uses'))).strip().splitlines()[0]}")
        return 0
    workflow = argv[0] if argv else "ci.yml"
    job_name = argv[1] if len(argv) > 1 else "linux"
    path, flow = load(workflow)
    jobs = flow.get("jobs") or {}
    if job_name not in jobs:
        print(f"run-workflow: {os.path.relpath(path, ROOT)} has no job `{job_name}`; it has {', '.join(jobs)}", file=sys.stderr)
        return 2
    job = jobs[job_name]
    with tempfile.TemporaryDirectory(prefix="run-workflow-") as scratch:
        folder, head = clone(scratch)
        env, contexts = runner_contexts(scratch, folder)
        # Nothing this machine sets for the tests leaks in: only the workflow's own variables.
        for key, value in list((flow.get("env") or {}).items()) + list((job.get("env") or {}).items()):
            env[str(key)] = str(value)
        print(f"== {os.path.relpath(path, ROOT)} {job_name}: a clean clone of {head} in {folder}")
        status = run_steps(job.get("steps", []), env, contexts, folder, scratch)
        if status == 0:
            print(f"== {job_name}: every run step passed")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
