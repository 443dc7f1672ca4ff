"""The same program through Pulumi's Automation API (an inline program: no Python language host needed).

    python automation.py up|preview|refresh-up|destroy

Credentials and ids come from the environment (WPE_API_USER_ID, WPE_API_PASSWORD, WPE_API_URL,
WPE_APP_HOSTING_URL, WPE_ACCOUNT_ID, WPE_INSTALL_ID); they become stack config (the password a secret)
and are removed from the environment the CLI and the provider see. The stack is STACK (default `dev`)
of the backend in PULUMI_BACKEND_URL. The last line printed is the result as JSON.
"""

import json
import os
import sys
from typing import Any

import pulumi.automation as auto

import quickstart

PROJECT = "wpengine-python"


def stack() -> auto.Stack:
    settings = auto.ProjectSettings(name=PROJECT, runtime="python")
    s = auto.create_or_select_stack(
        stack_name=os.environ.get("STACK", "dev"),
        project_name=PROJECT,
        program=quickstart.program,
        opts=auto.LocalWorkspaceOptions(project_settings=settings),
    )
    config = {
        "accountId": auto.ConfigValue(os.environ["WPE_ACCOUNT_ID"]),
        "installId": auto.ConfigValue(os.environ["WPE_INSTALL_ID"]),
        "wpengine:username": auto.ConfigValue(os.environ.pop("WPE_API_USER_ID")),
        "wpengine:password": auto.ConfigValue(os.environ.pop("WPE_API_PASSWORD"), secret=True),
    }
    for key, var in (("wpengine:apiUrl", "WPE_API_URL"), ("wpengine:appHostingUrl", "WPE_APP_HOSTING_URL")):
        if var in os.environ:
            config[key] = auto.ConfigValue(os.environ.pop(var))
    s.set_all_config(config)
    return s


def log(text: str) -> None:
    sys.stderr.write(text + "\n")


def main(command: str) -> dict[str, Any]:
    s = stack()
    if command == "up" or command == "refresh-up":
        up = s.up(on_output=log, refresh=command == "refresh-up")
        return {
            "changes": up.summary.resource_changes,
            "outputs": {k: {"value": v.value, "secret": v.secret} for k, v in up.outputs.items()},
        }
    if command == "preview":
        return {"changes": s.preview(on_output=log).change_summary}
    if command == "destroy":
        destroyed = s.destroy(on_output=log)
        s.workspace.remove_stack(s.name)
        return {"changes": destroyed.summary.resource_changes}
    raise SystemExit(f"unknown command {command!r}: up, preview, refresh-up or destroy")


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1] if len(sys.argv) > 1 else "up")))
