#!/usr/bin/env python3
"""Runs a GitHub workflow job's `run:` steps here, in a clean clone of HEAD with nothing beside it
(no ../shared), as a runner would, so a broken step shows up before a runner sees it.

    python3 scripts/run-workflow.py [WORKFLOW] [JOB]     # default: ci.yml linux
    python3 scripts/run-workflow.py --list               # each workflow's jobs and steps

`uses:` steps (checkout, setup-python) are what the clone and this machine already provide; they
are listed, not run. The workflow's and the job's `env` are set, `CI=true` and `GITHUB_ACTIONS=true`
too, as a runner sets them; a step's `if:` and `matrix` are not evaluated (a step with `if:` is
listed and skipped). Exit status: the first failing step's, else 0.
"""
import os
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:
    sys.exit("run-workflow: needs PyYAML (scripts/bootstrap.sh installs it: python3 -m pip install pyyaml)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKFLOWS = os.path.join(ROOT, ".github", "workflows")


def load(name):
    path = os.path.join(WORKFLOWS, name if name.endswith((".yml", ".yaml")) else name + ".yml")
    with open(path, encoding="utf-8") as handle:
        return path, yaml.safe_load(handle)


def describe(step):
    return step.get("name") or (step.get("run", "").strip().splitlines() or [step.get("uses", "?")])[0]


def main(argv):
    if argv[:1] == ["--list"]:
        for name in sorted(os.listdir(WORKFLOWS)):
            _, flow = load(name)
            for job, spec in (flow.get("jobs") or {}).items():
                print(f"{name} {job} ({spec.get('runs-on', '?')})")
                for step in spec.get("steps", []):
                    print(f"  {'run ' if 'run' in step else 'uses'}  {describe(step)}")
        return 0
    workflow = argv[0] if argv else "ci.yml"
    job_name = argv[1] if len(argv) > 1 else "linux"
    path, flow = load(workflow)
    jobs = flow.get("jobs") or {}
    if job_name not in jobs:
        print(f"run-workflow: {os.path.relpath(path, ROOT)} has no job `{job_name}`; it has {', '.join(jobs)}", file=sys.stderr)
        return 2
    job = jobs[job_name]
    # Nothing this machine sets for the tests leaks in: only the workflow's own variables.
    env = {key: value for key, value in os.environ.items() if not key.startswith("IAPDOCTOR_REQUIRE_")}
    for key, value in list((flow.get("env") or {}).items()) + list((job.get("env") or {}).items()):
        env[str(key)] = str(value)
    env.update({"CI": "true", "GITHUB_ACTIONS": "true"})
    with tempfile.TemporaryDirectory(prefix="run-workflow-") as scratch:
        clone = os.path.join(scratch, "repo")
        subprocess.run(["git", "clone", "-q", ROOT, clone], check=True)
        print(f"== {os.path.relpath(path, ROOT)} {job_name}: a clean clone of {subprocess.run(['git', '-C', clone, 'rev-parse', '--short', 'HEAD'], capture_output=True, text=True).stdout.strip()} in {clone}")
        for number, step in enumerate(job.get("steps", []), 1):
            title = describe(step)
            if "run" not in step:
                print(f"-- {number}. uses {step.get('uses')}: provided here, not run")
                continue
            if "if" in step:
                print(f"-- {number}. {title}: has `if: {step['if']}`, skipped")
                continue
            print(f"-- {number}. {title}", flush=True)
            step_env = dict(env)
            step_env.update({str(k): str(v) for k, v in (step.get("env") or {}).items()})
            folder = os.path.join(clone, step.get("working-directory", "."))
            result = subprocess.run(["bash", "-eo", "pipefail", "-c", step["run"]], cwd=folder, env=step_env)
            if result.returncode != 0:
                print(f"run-workflow: step {number} ({title}) failed with exit {result.returncode}", file=sys.stderr)
                return result.returncode
        print(f"== {job_name}: every run step passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
