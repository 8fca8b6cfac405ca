#!/usr/bin/env python3
"""Writes the generated part of the root Package.swift from the manifests under Packages/.

The root manifest vends every local package's libraries and holds their targets (at their
folders under Packages/), so that another project can depend on this repository by URL and a
version and pick single products; SwiftPM refuses a versioned package whose dependencies are
local paths. Each Packages/X/Package.swift stays the one source of truth for its targets: this
script reads them (`swift package dump-package`) and rewrites the part of the root manifest
between its two MARK lines. With --check it changes nothing and fails when that part differs
from what it would write (CI runs it so).

Usage: Scripts/generate-root-manifest.py [--check]
"""
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = os.path.join(ROOT, "Package.swift")
BEGIN = "// MARK: - Generated from Packages/*/Package.swift"
END = "// MARK: - End of the generated part"


def dump(name):
    """The manifest of package `name` as SwiftPM reads it."""
    result = subprocess.run(
        ["swift", "package", "dump-package", "--package-path", f"Packages/{name}"],
        cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"Packages/{name}/Package.swift: {result.stderr.strip()}")
    return json.loads(result.stdout)


def quoted(text):
    return json.dumps(text)


def providers(target):
    rendered = []
    for provider in target.get("providers") or []:
        for kind, (names,) in provider.items():
            rendered.append(f".{kind}([{', '.join(map(quoted, names))}])")
    return rendered


def generated(packages):
    """The generated part of the root manifest for `packages` (name -> dumped manifest)."""
    targets_of = {}  # product name -> its targets
    known = set()
    for manifest in packages.values():
        for product in manifest["products"]:
            targets_of[product["name"]] = product["targets"]
        known.update(target["name"] for target in manifest["targets"])

    def dependencies(target):
        names = []
        for dependency in target["dependencies"]:
            (kind, values), = dependency.items()
            name = values[0]
            if kind == "product" or (kind == "byName" and name not in known):
                if name not in targets_of:
                    sys.exit(f"{target['name']}: no local product {name} (a remote package?)")
                names.extend(targets_of[name])
            else:
                names.append(name)
        return list(dict.fromkeys(names))

    for manifest in packages.values():
        for target in manifest["targets"]:
            unsupported = [key for key in ("path", "exclude", "sources", "resources", "settings",
                                           "publicHeadersPath", "pluginUsages")
                           if target.get(key)]
            if unsupported:
                sys.exit(f"{target['name']}: {', '.join(unsupported)} not carried over yet")

    products = []
    targets = []
    for name, manifest in packages.items():
        for product in manifest["products"]:
            if "library" not in product["type"]:
                sys.exit(f"Packages/{name}: only library products are vended")
            products.append(
                f".library(name: {quoted(product['name'])}, "
                f"targets: [{', '.join(map(quoted, product['targets']))}]),")
        targets.append(f"// Packages/{name}")
        for target in manifest["targets"]:
            folder = "Tests" if target["type"] == "test" else "Sources"
            path = quoted(f"Packages/{name}/{folder}/{target['name']}")
            if target["type"] == "system":
                arguments = [f"name: {quoted(target['name'])}", f"path: {path}"]
                if target.get("pkgConfig"):
                    arguments.append(f"pkgConfig: {quoted(target['pkgConfig'])}")
                if providers(target):
                    arguments.append(f"providers: [{', '.join(providers(target))}]")
                targets.append(f".systemLibrary({', '.join(arguments)}),")
                continue
            kind = {"regular": "target", "test": "testTarget"}.get(target["type"])
            if kind is None:
                sys.exit(f"{target['name']}: a {target['type']} target is not carried over yet")
            targets.append(
                f".{kind}(name: {quoted(target['name'])}, "
                f"dependencies: [{', '.join(map(quoted, dependencies(target)))}], path: {path}),")
    return "\n".join([
        BEGIN + " by Scripts/generate-root-manifest.py:",
        "// edit those manifests, then run the script; CI fails when this part differs from its",
        "// output.",
        "",
        "/// Every library of the local packages, for another project to pick one by one.",
        "var packageProducts: [Product] {",
        "  [",
        *products,
        "  ]",
        "}",
        "",
        "/// The targets of the local packages, at their folders under Packages/.",
        "var packageTargets: [Target] {",
        "  [",
        *targets,
        "  ]",
        "}",
        "",
        END + ".",
    ])


def formatted(text):
    """`text` as `swift format` (with the repository's configuration) writes it."""
    result = subprocess.run(
        ["swift", "format", "--assume-filename", MANIFEST], input=text, cwd=ROOT,
        capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"swift format: {result.stderr.strip()}")
    return result.stdout


def main():
    check = sys.argv[1:] == ["--check"]
    if sys.argv[1:] not in ([], ["--check"]):
        sys.exit(__doc__)
    folder = os.path.join(ROOT, "Packages")
    names = sorted(name for name in os.listdir(folder)
                   if os.path.isfile(os.path.join(folder, name, "Package.swift")))
    with ThreadPoolExecutor(max_workers=4) as pool:
        packages = dict(zip(names, pool.map(dump, names)))
    with open(MANIFEST) as file:
        current = file.read()
    start, end = current.find(BEGIN), current.find(END)
    if start < 0 or end < 0:
        sys.exit(f"Package.swift has no lines starting with '{BEGIN}' and '{END}'")
    end = current.index("\n", end) + 1
    wanted = formatted(current[:start] + generated(packages) + "\n" + current[end:])
    if check:
        if wanted != current:
            sys.exit("Package.swift differs from the packages' manifests: run "
                     "Scripts/generate-root-manifest.py and commit the result")
        print(f"Package.swift agrees with the manifests of {len(names)} packages")
        return
    if wanted != current:
        with open(MANIFEST, "w") as file:
            file.write(wanted)
    print(f"Package.swift: the targets and libraries of {len(names)} packages")


main()
