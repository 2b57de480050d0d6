"""The build's package map: the checkout's top-level layer folders ship as `iwr.<layer>` (the
static metadata is in pyproject.toml; only this map needs code, to list every subpackage, data
folders included: tasks/suite's files ship as the bundled suite)."""
from setuptools import find_namespace_packages, setup

LAYERS = ("tasks", "mcp_servers", "agents", "graphs", "evals")

setup(
    packages=["iwr"] + [f"iwr.{layer}{'.' + sub if sub else ''}"
                        for layer in LAYERS for sub in ["", *find_namespace_packages(layer, exclude=["*__pycache__*"])]],
    package_dir={"iwr": "iwr", **{f"iwr.{layer}": layer for layer in LAYERS}},
)
