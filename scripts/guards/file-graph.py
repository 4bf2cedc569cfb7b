#!/usr/bin/env python3
"""file-graph.py — the file-level call/include graph of src/, and any cycle in it.

Usage: file-graph.py [--edges] PROGRAM...

Each PROGRAM is a comma-separated list of object directories linked into one program (for
example build/obj, or build/mpi/obj,build/obj/src for the MPI binary: its CLI objects
with the library's). Within one program, file A calls file B when an object of A has an
undefined symbol (nm -u) that B's object defines (nm --defined-only, global). Include
edges come from the #include "..." lines of every .c and .h under src/ (resolved against
the including file's directory, then src/ and include/). A file and the header of the same
name beside it (batch.c, batch.h) are one node: the header is the file's interface, so
`a.c includes b.h` and `a.c calls b.c` are the same dependency.

A header's own code calls too: the static and inline functions written in a header are
compiled into each includer, so no object shows their calls as a header's. Those calls are
read from the text (comments and preprocessor lines dropped): a name called inside a
function body of header H is an edge H -> the object that defines it globally (nm), else ->
the header that declares it as a static prototype (a template's hook contract), else -> the
one header that defines it. Names defined in H itself, or written by several files with no
prototype (a template's hooks before they had a contract), give no edge. So a header whose
inline function calls a function of a .c that includes it (internal.h -> batch_api.c ->
internal.h), or two headers calling each other (one included halfway through the other),
show as a circle.

Prints every strongly connected component with more than one node (a circle) and one
shortest cycle through it; with --edges the whole edge list first. It also checks the
layers' direction: the programs (src/cli/) may use the programs' layer (src/app/) and the
library, the programs' layer only the library, and the library (the rest of src/, include/)
neither of them; every edge against that direction is printed. Exit status 1 when any circle
or such edge is found, 0 otherwise (so `make file-graph` fails on either).
"""
import os
import re
import subprocess
import sys
from collections import defaultdict, deque

SRC = "src"
INCLUDE_DIRS = [SRC, "include"]
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# Layers, highest first: a file may depend on its own layer and the ones below, never above.
LAYERS = [(os.path.join(SRC, "cli") + os.sep, 2), (os.path.join(SRC, "app") + os.sep, 1)]


def layer(path):
    """The layer of a node: 2 the programs, 1 the programs' layer, 0 the library."""
    for prefix, level in LAYERS:
        if path.startswith(prefix):
            return level
    return 0


def node(path):
    """The graph node of a source path: a header shares the node of its same-named .c."""
    path = os.path.normpath(path)
    stem, ext = os.path.splitext(path)
    if ext == ".h" and os.path.exists(stem + ".c"):
        return stem + ".c"
    return path


def include_edges():
    """(from, to) node pairs of the #include "..." lines under src/ (and include/)."""
    edges = set()
    for root in INCLUDE_DIRS:
        for d, _, names in os.walk(root):
            for n in names:
                if not n.endswith((".c", ".h")):
                    continue
                path = os.path.join(d, n)
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                for inc in INCLUDE_RE.findall(text):
                    for base in [d] + INCLUDE_DIRS:
                        cand = os.path.normpath(os.path.join(base, inc))
                        if os.path.isfile(cand):
                            a, b = node(path), node(cand)
                            if a != b:
                                edges.add((a, b))
                            break  # first match wins, as for the compiler
    return edges


C_KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "do", "else", "case",
              "_Static_assert", "_Generic", "_Alignof", "__attribute__", "__builtin_expect",
              "defined", "typeof", "__typeof__", "_Pragma", "__extension__", "asm", "__asm__"}
IDENT_CALL_RE = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


def strip_c(text):
    """text without comments, string and character literals, and preprocessor lines."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"'(?:\\.|[^'\\\n])*'", "''", text)
    out, cont = [], False
    for line in text.split("\n"):
        pre = cont or line.lstrip().startswith("#")
        cont = pre and line.rstrip().endswith("\\")
        out.append("" if pre else line)
    return "\n".join(out)


def header_functions(text):
    """(defined, static_declared, called) function names of one header's stripped text:
    definitions and prototypes at file scope, names called inside function bodies."""
    defined, declared, called = set(), set(), set()
    depth, i, n = 0, 0, len(text)
    start = 0  # where the current file-scope declaration began
    while i < n:
        ch = text[i]
        if ch == "{":
            if depth == 0:
                head = text[start:i]
                m = re.search(r"\b([A-Za-z_]\w*)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*"
                              r"(?:__attribute__\s*\(\(.*?\)\)\s*)*$", head, re.S)
                is_fn = m is not None and not re.search(r"\b(struct|union|enum)\s*\w*\s*$", head)
                body_start = i
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                if is_fn:
                    defined.add(m.group(1))
                    for name in IDENT_CALL_RE.findall(text[body_start:i]):
                        if name not in C_KEYWORDS:
                            called.add(name)
                start = i + 1
        elif ch == ";" and depth == 0:
            decl = text[start:i]
            dm = re.search(r"\bstatic\b[^=]*?\b([A-Za-z_]\w*)\s*\([^=]*\)\s*"
                           r"(?:__attribute__\s*\(\(.*?\)\)\s*)*$", decl, re.S)
            if dm and "typedef" not in decl:
                declared.add(dm.group(1))
            start = i + 1
        i += 1
    return defined, declared, called


def header_call_edges(owner):
    """(from, to) node pairs of the calls written in src/ headers; owner maps a global
    symbol to the source file that defines it."""
    info = {}
    for d, _, names in os.walk(SRC):
        for nm in names:
            if nm.endswith(".h"):
                path = os.path.normpath(os.path.join(d, nm))
                with open(path, encoding="utf-8", errors="replace") as f:
                    info[path] = header_functions(strip_c(f.read()))
    declared_in, defined_in = defaultdict(set), defaultdict(set)
    for path, (defined, declared, _) in info.items():
        for name in declared:
            declared_in[name].add(path)
        for name in defined:
            defined_in[name].add(path)
    edges = set()
    for path, (defined, _, called) in info.items():
        for name in called:
            if name in defined:
                continue
            if name in owner:
                to = owner[name]
            elif len(declared_in[name] - {path}) == 1:
                to = next(iter(declared_in[name] - {path}))
            elif len(defined_in[name]) == 1:
                to = next(iter(defined_in[name]))
            else:
                continue
            a, b = node(path), node(to)
            if a != b:
                edges.add((a, b))
    return edges


def nm_symbols(obj):
    """(defined, undefined) global symbol sets of one object file."""
    out = subprocess.run(["nm", "-P", obj], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        sym, kind = parts[0], parts[1]
        if kind == "U":
            undefined.add(sym)
        elif kind.isupper() and kind not in "NW":  # global definitions (W: weak, OpenMP's)
            defined.add(sym)
    return defined, undefined


def objects(dirs):
    """{source path: object path} for every .o under the directories (obj/src/x.o -> src/x.c)."""
    found = {}
    for top in dirs:
        for d, _, names in os.walk(top):
            for n in names:
                if not n.endswith(".o"):
                    continue
                obj = os.path.join(d, n)
                rel = os.path.relpath(obj, top)
                i = rel.find(SRC + os.sep)
                if rel.startswith(SRC + os.sep):
                    src = rel
                elif os.path.basename(os.path.normpath(top)) == SRC:
                    src = os.path.join(SRC, rel)
                elif i >= 0:
                    src = rel[i:]
                else:
                    continue  # tests, tools: not src/
                src = src[:-2] + ".c"
                if os.path.isfile(src):
                    found.setdefault(src, obj)  # the first directory wins (MPI CLI objects)
    return found


def call_edges(dirs):
    """(from, to) node pairs of one program's calls between its src/ objects."""
    objs = objects(dirs)
    defs, undefs = {}, {}
    for src, obj in objs.items():
        defs[src], undefs[src] = nm_symbols(obj)
    owner = {}
    for src, syms in defs.items():
        for s in syms:
            owner.setdefault(s, src)
    edges = set()
    for src, syms in undefs.items():
        for s in syms:
            dst = owner.get(s)
            if dst and node(dst) != node(src):
                edges.add((node(src), node(dst)))
    return edges | header_call_edges(owner), len(objs)


def sccs(nodes, adj):
    """Tarjan's strongly connected components (iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(sorted(adj[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            pushed = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(adj[w]))))
                    pushed = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if pushed:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


def shortest_cycle(comp, adj):
    """A shortest cycle through the component's first node, staying inside the component."""
    inside = set(comp)
    start = comp[0]
    prev = {start: None}
    q = deque([start])
    while q:
        v = q.popleft()
        for w in sorted(adj[v]):
            if w not in inside:
                continue
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w not in prev:
                prev[w] = v
                q.append(w)
    return [start]


def main(argv):
    show_edges = "--edges" in argv
    programs = [a for a in argv if a != "--edges"]
    if not programs:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    edges = include_edges()
    for prog in programs:
        dirs = [d for d in prog.split(",") if d]
        missing = [d for d in dirs if not os.path.isdir(d)]
        if missing:
            print("file-graph: no object directory %s (build first)" % ", ".join(missing),
                  file=sys.stderr)
            return 2
        e, n = call_edges(dirs)
        if n == 0:
            print("file-graph: no src/ objects under %s" % prog, file=sys.stderr)
            return 2
        edges |= e
    adj = defaultdict(set)
    nodes = set()
    for a, b in edges:
        adj[a].add(b)
        nodes.update((a, b))
    if show_edges:
        for a, b in sorted(edges):
            print("%s -> %s" % (a, b))
    circles = [c for c in sccs(nodes, adj) if len(c) > 1]
    upward = sorted((a, b) for a, b in edges if layer(a) < layer(b))
    print("file-graph: %d files, %d edges (%s), %d circle%s, %d edge%s against the layers" %
          (len(nodes), len(edges), "; ".join(programs), len(circles),
           "" if len(circles) == 1 else "s", len(upward), "" if len(upward) == 1 else "s"))
    for c in sorted(circles):
        print("circle of %d files: %s" % (len(c), " ".join(c)))
        print("  e.g. %s" % " -> ".join(shortest_cycle(c, adj)))
    for a, b in upward:
        print("against the layers (cli -> app -> library): %s -> %s" % (a, b))
    return 1 if circles or upward else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
