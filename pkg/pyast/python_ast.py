# toolctl's static reader of Python source (import --from python), passed
# to the interpreter with -I -S -c: nothing is written to disk, no site
# hook or user path runs, and the file's own code never runs: its source
# comes on stdin and is only parsed with ast.parse (no import, no exec, no
# eval; defaults are read with ast.literal_eval, which evaluates literals
# only). argv: NAME, the file's name for messages. It writes one JSON
# document to stdout: {"functions": [...], "classes": [...], "aliases":
# {...}} or {"error": {"message", "line", "col"}}.
# Keep it compatible with Python 3.8.
import ast
import json
import sys


def _main():
    name = sys.argv[1] if len(sys.argv) > 1 else "<input>"
    data = sys.stdin.buffer.read()
    try:
        tree = ast.parse(data, filename=name, type_comments=True)
    except SyntaxError as e:
        return {"error": {"message": "%s: %s" % (type(e).__name__, e.msg), "line": e.lineno or 0, "col": e.offset or 0}}
    except (ValueError, RecursionError, MemoryError) as e:
        return {"error": {"message": "%s: %s" % (type(e).__name__, e), "line": 0, "col": 0}}
    try:
        text = data.decode(_encoding(tree, data), "replace")
    except LookupError:
        text = data.decode("utf-8", "replace")
    r = _Reader(text.splitlines())
    out = {"functions": [], "classes": [], "aliases": {}}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out["functions"].append(r.function(node, None))
        elif isinstance(node, ast.ClassDef):
            out["classes"].append(r.klass(node))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            # X: TypeAlias = list[int]
            if _dotted(node.annotation) in ("TypeAlias", "typing.TypeAlias", "typing_extensions.TypeAlias"):
                out["aliases"][node.target.id] = r.ann(node.value)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            # X = list[int], X = Optional[str]: only subscripted or union
            # types, so that plain constants are not taken for aliases
            if isinstance(node.value, (ast.Subscript, ast.BinOp)):
                out["aliases"][node.targets[0].id] = r.ann(node.value)
        elif type(node).__name__ == "TypeAlias":  # type X = ... (3.12)
            out["aliases"][node.name.id] = r.ann(node.value)
    return out


def _encoding(tree, data):
    # PEP 263: a coding cookie in the first two lines; UTF-8 otherwise.
    import re

    for line in data.splitlines()[:2]:
        m = re.match(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", line)
        if m:
            return m.group(1).decode("ascii")
    return "utf-8-sig"


def _dotted(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


class _Reader:
    def __init__(self, lines):
        self.lines = lines

    def pos(self, node):
        # 1-based line and column; columns count characters (col_offset
        # counts UTF-8 bytes).
        line = getattr(node, "lineno", 0) or 0
        col = getattr(node, "col_offset", 0) or 0
        if 0 < line <= len(self.lines):
            col = len(self.lines[line - 1].encode("utf-8")[:col].decode("utf-8", "replace"))
        return [line, col + 1]

    def text(self, node):
        try:
            return ast.unparse(node)
        except AttributeError:  # Python 3.8
            pass
        line, end = getattr(node, "lineno", 0), getattr(node, "end_lineno", 0)
        if line and end and line == end and 0 < line <= len(self.lines):
            b = self.lines[line - 1].encode("utf-8")
            return b[node.col_offset : node.end_col_offset].decode("utf-8", "replace")
        return ast.dump(node)

    def ann(self, node):
        # The structured form of an annotation: names (dotted), subscripts,
        # unions (|), constants (a string constant also parsed, as a
        # forward reference), lists, calls (Field(...)), and "other".
        out = {"text": self.text(node), "pos": self.pos(node)}
        name = _dotted(node)
        if name is not None:
            out.update(k="name", id=name)
        elif isinstance(node, ast.Subscript):
            sl = node.slice
            if type(sl).__name__ == "Index":  # Python 3.8
                sl = sl.value
            args = sl.elts if isinstance(sl, ast.Tuple) else [sl]
            out.update(k="sub", base=self.ann(node.value), args=[self.ann(a) for a in args])
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            out.update(k="or", args=[self.ann(node.left), self.ann(node.right)])
        elif isinstance(node, ast.Constant):
            v = node.value
            if v is Ellipsis:
                out.update(k="ellipsis")
            elif v is None or isinstance(v, (bool, int, float, str)):
                out.update(k="const", value=v)
                if isinstance(v, str):
                    try:
                        fwd = ast.parse(v.strip(), mode="eval").body
                        out["parsed"] = _repos(self.ann(fwd), out["pos"])
                    except (SyntaxError, ValueError, RecursionError, MemoryError):
                        pass
            else:
                out.update(k="other")
        elif isinstance(node, (ast.List, ast.Tuple)):
            out.update(k="list", items=[self.ann(e) for e in node.elts])
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
            v = node.operand.value
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                out.update(k="const", value=-v)
            else:
                out.update(k="other")
        elif isinstance(node, ast.Call):
            out.update(
                k="call",
                func=_dotted(node.func) or self.text(node.func),
                args=[self.ann(a) for a in node.args],
                kw={k.arg: self.ann(k.value) for k in node.keywords if k.arg},
            )
        else:
            out.update(k="other")
        return out

    def default(self, node):
        out = {"text": self.text(node), "pos": self.pos(node)}
        try:
            v = ast.literal_eval(node)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            ref = _dotted(node)
            if ref is not None:
                out["ref"] = ref  # a name: Color.RED, a constant
            elif isinstance(node, ast.Call):
                out["call"] = self.ann(node)  # Field(3, ge=1)
            return out
        v, ok = _jsonable(v)
        if ok:
            out["value"] = v
        return out

    def function(self, node, cls):
        a = node.args
        params = []
        posonly = getattr(a, "posonlyargs", [])
        positional = posonly + a.args
        defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
        for i, arg in enumerate(positional):
            params.append(self.param(arg, "positional_only" if i < len(posonly) else "positional", defaults[i]))
        if a.vararg:
            params.append(self.param(a.vararg, "var_positional", None))
        for arg, d in zip(a.kwonlyargs, a.kw_defaults):
            params.append(self.param(arg, "keyword_only", d))
        if a.kwarg:
            params.append(self.param(a.kwarg, "var_keyword", None))
        out = {
            "name": node.name,
            "qualname": node.name if cls is None else cls + "." + node.name,
            "pos": self.pos(node),
            "async": isinstance(node, ast.AsyncFunctionDef),
            "decorators": [_dotted(d.func if isinstance(d, ast.Call) else d) or self.text(d) for d in node.decorator_list],
            "doc": ast.get_docstring(node, clean=True),
            "params": params,
            "returns": self.ann(node.returns) if node.returns is not None else None,
        }
        tc = getattr(node, "type_comment", None)
        if tc:
            out["type_comment"] = self.type_comment(tc, node)
        return out

    def type_comment(self, tc, node):
        # PEP 484: "# type: (int, str) -> bool"
        try:
            ft = ast.parse(tc, mode="func_type")
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return {"text": tc, "error": True}
        return _repos(
            {"text": tc, "args": [self.ann(x) for x in ft.argtypes], "returns": self.ann(ft.returns)},
            self.pos(node),
        )

    def param(self, arg, kind, default):
        out = {"name": arg.arg, "kind": kind, "pos": self.pos(arg)}
        if arg.annotation is not None:
            out["annotation"] = self.ann(arg.annotation)
        tc = getattr(arg, "type_comment", None)
        if tc and arg.annotation is None:
            try:
                out["annotation"] = _repos(self.ann(ast.parse(tc, mode="eval").body), out["pos"])
                out["from"] = "type comment"
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                pass
        if default is not None:
            out["default"] = self.default(default)
        return out

    def klass(self, node):
        out = {
            "name": node.name,
            "pos": self.pos(node),
            "bases": [_dotted(b) or self.text(b) for b in node.bases],
            "keywords": {k.arg: self.text(k.value) for k in node.keywords if k.arg},
            "decorators": [_dotted(d.func if isinstance(d, ast.Call) else d) or self.text(d) for d in node.decorator_list],
            "doc": ast.get_docstring(node, clean=True),
            "fields": [],
            "values": [],
            "methods": [],
        }
        for st in node.body:
            if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name):
                f = {"name": st.target.id, "pos": self.pos(st.target), "annotation": self.ann(st.annotation)}
                if st.value is not None:
                    f["default"] = self.default(st.value)
                out["fields"].append(f)
            elif isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
                v = self.default(st.value)
                v["name"] = st.targets[0].id
                out["values"].append(v)
            elif isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
                out["methods"].append(self.function(st, node.name))
        return out


def _repos(tree, pos):
    # A forward reference ("list[int]") or a type comment is parsed from a
    # string: its nodes' positions are those of the string.
    if isinstance(tree, dict):
        if "pos" in tree:
            tree["pos"] = pos
        for v in tree.values():
            _repos(v, pos)
    elif isinstance(tree, list):
        for v in tree:
            _repos(v, pos)
    return tree


def _jsonable(v):
    # A literal as JSON: tuples and sets become lists; bytes, complex and
    # non-string keys have no JSON form.
    if v is None or isinstance(v, (bool, int, str)):
        return v, True
    if isinstance(v, float):
        return v, v == v and v not in (float("inf"), float("-inf"))
    if isinstance(v, (list, tuple, set, frozenset)):
        items = []
        for x in sorted(v, key=repr) if isinstance(v, (set, frozenset)) else v:
            x, ok = _jsonable(x)
            if not ok:
                return None, False
            items.append(x)
        return items, True
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            x, ok = _jsonable(x)
            if not isinstance(k, str) or not ok:
                return None, False
            out[k] = x
        return out, True
    return None, False


try:
    _doc = _main()
except RecursionError:
    _doc = {"error": {"message": "the file is nested too deeply to read", "line": 0, "col": 0}}
try:
    _out = json.dumps(_doc, ensure_ascii=True)
except (RecursionError, ValueError):
    _out = json.dumps({"error": {"message": "the file is nested too deeply to read", "line": 0, "col": 0}})
sys.stdout.buffer.write(_out.encode("ascii"))
sys.stdout.buffer.write(b"\n")
sys.stdout.buffer.flush()
