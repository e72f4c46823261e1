# toolctl's run-time reader of a Python module (import --from python
# --exec), passed to the interpreter with -I -c. Unlike python_ast.py it
# IMPORTS the module, which runs its code: only for a module the user asked
# to import with --exec. argv: FILE (absolute), MODULE (its name), a JSON
# list of the classes the static reader found in the file (their schemas
# come from it), then the qualified names of the functions to resolve. It resolves what only the
# running code knows: typing.get_type_hints(include_extras=True) of each
# function (aliases imported from other modules, NewType, string
# annotations), its default values, pydantic models (model_json_schema),
# and the Enum, TypedDict, dataclass and NamedTuple classes the hints name.
# It writes one JSON document to the stdout it was started with; the
# module's own prints go to stderr. Keep it compatible with Python 3.8.
import os
import sys

sys.dont_write_bytecode = True
_out_fd = os.dup(1)
os.dup2(2, 1)  # the module's prints (and its children's) go to stderr
sys.stdout = sys.stderr

import dataclasses
import enum
import importlib
import importlib.util
import inspect
import json
import traceback
import types
import typing

_MAX_DEPTH = 40


def _jsonable(v, depth=0):
    if depth > 20:
        return None, False
    if isinstance(v, enum.Enum):
        v = v.value
    if v is None or isinstance(v, (bool, int, str)):
        return v, True
    if isinstance(v, float):
        return v, v == v and v not in (float("inf"), float("-inf"))
    if isinstance(v, (list, tuple)):
        items = []
        for x in v:
            x, ok = _jsonable(x, depth + 1)
            if not ok:
                return None, False
            items.append(x)
        return items, True
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            x, ok = _jsonable(x, depth + 1)
            if not isinstance(k, str) or not ok:
                return None, False
            out[k] = x
        return out, True
    return None, False


def _text(t):
    try:
        if isinstance(t, type) and not typing.get_args(t):
            if t.__module__ == "builtins":
                return t.__qualname__
            return t.__module__ + "." + t.__qualname__
        s = repr(t)
    except Exception:
        s = "<unprintable>"
    for p in ("typing.", "typing_extensions."):
        s = s.replace(p, "")
    return s[:200]


def _name(id_, text=None):
    return {"k": "name", "id": id_, "text": text or id_}


def _other(t, why=""):
    out = {"k": "other", "text": _text(t)}
    if why:
        out["why"] = why
    return out


def _const(v):
    val, ok = _jsonable(v)
    if not ok:
        return _other(v, "a value JSON cannot carry")
    return {"k": "const", "value": val, "text": repr(v)[:200]}


def _is_typeddict(t):
    f = getattr(typing, "is_typeddict", None)
    if f is not None and f(t):
        return True
    return isinstance(t, type) and issubclass(t, dict) and hasattr(t, "__required_keys__")


def _doc(cls):
    d = cls.__dict__.get("__doc__")
    if not d or d.startswith(cls.__name__ + "(") or d in ("An enumeration.",):
        return None
    return inspect.cleandoc(d)


class _Resolver:
    def __init__(self, module, static_classes):
        self.module = module
        self.static_classes = static_classes
        self.classes = []
        self.seen = {}

    # --- annotations --------------------------------------------------
    def node(self, t, depth=0):
        if depth > _MAX_DEPTH:
            return _other(t, "nested too deeply")
        d = depth + 1
        if t is None or t is type(None):
            return _name("None")
        if t is typing.Any:
            return _name("Any")
        if isinstance(t, (str, typing.ForwardRef)):
            return _other(t, "a forward reference that does not resolve at run time")
        if type(t).__name__ == "TypeAliasType":  # type X = ... (3.12)
            return self.node(t.__value__, d)
        if hasattr(t, "__supertype__"):  # NewType
            return self.node(t.__supertype__, d)
        if isinstance(t, typing.TypeVar):
            return _other(t, "a type variable")
        origin = typing.get_origin(t)
        args = typing.get_args(t)
        meta = getattr(t, "__metadata__", None)
        if meta is not None:  # Annotated[T, ...]
            return {"k": "sub", "text": _text(t), "base": _name("Annotated"), "args": [self.node(t.__origin__, d)] + [self.meta(m) for m in meta]}
        if origin is typing.Literal:
            return {"k": "sub", "text": _text(t), "base": _name("Literal"), "args": [_const(a) for a in args]}
        if origin is typing.Union or (getattr(types, "UnionType", None) is not None and origin is types.UnionType):
            return {"k": "sub", "text": _text(t), "base": _name("Union"), "args": [self.node(a, d) for a in args]}
        if origin is not None:
            base = _name(self.class_id(origin) if isinstance(origin, type) else _text(origin).split("[")[0])
            if not args:
                if origin is tuple and "[()]" in _text(t):
                    return {"k": "sub", "text": _text(t), "base": base, "args": [{"k": "list", "items": [], "text": "()"}]}
                return dict(base, text=_text(t))
            return {"k": "sub", "text": _text(t), "base": base, "args": [self.arg(a, d) for a in args]}
        if isinstance(t, type):
            return self.klass(t)
        return _other(t)

    def arg(self, a, depth):
        if a is Ellipsis:
            return {"k": "ellipsis", "text": "..."}
        if isinstance(a, list):  # Callable[[A, B], R]
            return {"k": "list", "text": _text(a), "items": [self.node(x, depth) for x in a]}
        return self.node(a, depth)

    def class_id(self, t):
        if t.__module__ == "builtins":
            return t.__qualname__
        return t.__module__ + "." + t.__qualname__

    def meta(self, m):
        # Annotated metadata as the static reader writes it: a string, a
        # call Field(...), Doc(...), Ge(...)...
        if isinstance(m, str):
            return _const(m)
        cname = type(m).__name__
        if cname == "FieldInfo":
            kw = {}
            for k in ("title", "description", "examples"):
                v = getattr(m, k, None)
                if v is not None:
                    kw[k] = self.kwval(v)
            for c in getattr(m, "metadata", None) or []:
                for k in ("ge", "gt", "le", "lt", "multiple_of", "min_length", "max_length", "pattern"):
                    v = getattr(c, k, None)
                    if v is not None:
                        kw[k] = self.kwval(v)
            return {"k": "call", "func": "Field", "text": _text(m), "args": [], "kw": kw}
        if cname in ("Ge", "Gt", "Le", "Lt", "MultipleOf", "MinLen", "MaxLen"):
            attr = {"MultipleOf": "multiple_of", "MinLen": "min_length", "MaxLen": "max_length"}.get(cname, cname.lower())
            return {"k": "call", "func": cname, "text": _text(m), "args": [_const(getattr(m, attr, None))], "kw": {}}
        if cname == "Doc" and isinstance(getattr(m, "documentation", None), str):
            return {"k": "call", "func": "Doc", "text": _text(m), "args": [_const(m.documentation)], "kw": {}}
        return _other(m)

    def kwval(self, v):
        if isinstance(v, list):
            return {"k": "list", "text": repr(v)[:200], "items": [_const(x) for x in v]}
        return _const(v)

    # --- classes ------------------------------------------------------
    def klass(self, t):
        if t.__module__ == "builtins" or t.__module__ in ("datetime", "uuid", "pathlib", "decimal", "collections.abc", "typing"):
            return _name(self.class_id(t))
        if _is_pydantic(t):
            return self.pydantic(t)
        kind = None
        if isinstance(t, enum.EnumMeta):
            kind = "enum"
        elif _is_typeddict(t):
            kind = "typeddict"
        elif dataclasses.is_dataclass(t):
            kind = "dataclass"
        elif issubclass(t, tuple) and hasattr(t, "_fields"):
            kind = "namedtuple"
        if kind is None:
            return _other(t, "class %s of module %s is not an Enum, a TypedDict, a dataclass, a NamedTuple or a pydantic model" % (t.__qualname__, t.__module__))
        if t.__module__ == self.module.__name__ and t.__qualname__ in self.static_classes:
            return _name(t.__qualname__)  # the file's own class, read statically
        id_ = self.class_id(t)
        if id_ not in self.seen:
            self.seen[id_] = True
            try:
                self.classes.append(self.synth(t, id_, kind))
            except Exception as e:
                return _other(t, "class %s could not be read: %s: %s" % (t.__qualname__, type(e).__name__, e))
        return _name(id_)

    def synth(self, t, id_, kind):
        cls = {"name": id_, "pos": [0, 0], "bases": [], "keywords": {}, "decorators": [], "doc": _doc(t), "fields": [], "values": [], "methods": []}
        if kind == "enum":
            cls["bases"] = ["Enum"]
            for m in t:
                v = {"name": m.name, "text": repr(m.value)[:200], "pos": [0, 0]}
                val, ok = _jsonable(m.value)
                if ok:
                    v["value"] = val
                cls["values"].append(v)
            return cls
        hints = _type_hints(t)
        if kind == "typeddict":
            cls["bases"] = ["TypedDict"]
            req = getattr(t, "__required_keys__", frozenset())
            for name, h in hints.items():
                while typing.get_origin(h) in (getattr(typing, "Required", None), getattr(typing, "NotRequired", None)) and typing.get_origin(h) is not None:
                    h = typing.get_args(h)[0]
                wrap = "Required" if name in req else "NotRequired"
                ann = {"k": "sub", "text": _text(h), "base": _name(wrap), "args": [self.node(h)]}
                cls["fields"].append({"name": name, "pos": [0, 0], "annotation": ann})
            return cls
        if kind == "dataclass":
            cls["decorators"] = ["dataclass"]
            for f in dataclasses.fields(t):
                fd = {"name": f.name, "pos": [0, 0], "annotation": self.node(hints.get(f.name, typing.Any))}
                if f.default is not dataclasses.MISSING:
                    fd["default"] = self.default(f.default)
                elif f.default_factory is not dataclasses.MISSING:
                    fd["default"] = {"text": "default_factory", "pos": [0, 0]}
                cls["fields"].append(fd)
            return cls
        cls["bases"] = ["NamedTuple"]
        defaults = getattr(t, "_field_defaults", {})
        for name in t._fields:
            fd = {"name": name, "pos": [0, 0], "annotation": self.node(hints.get(name, typing.Any))}
            if name in defaults:
                fd["default"] = self.default(defaults[name])
            cls["fields"].append(fd)
        return cls

    def default(self, v):
        out = {"text": repr(v)[:200], "pos": [0, 0]}
        val, ok = _jsonable(v)
        if ok:
            out["value"] = val
        return out

    def pydantic(self, t):
        try:
            s = t.model_json_schema()
            s = _drop_model_title(_inline(s, s.get("$defs", {}), set()), t)
        except _Recursive as e:
            return _other(t, "pydantic model %s refers to itself (%s); a recursive type has no inline schema" % (t.__qualname__, e))
        except Exception as e:
            return _other(t, "pydantic could not give the schema of %s: %s: %s" % (t.__qualname__, type(e).__name__, str(e).splitlines()[0] if str(e) else ""))
        return {"k": "schema", "text": _text(t), "value": s}


def _is_pydantic(t):
    for b in getattr(t, "__mro__", ()):
        if b.__name__ == "BaseModel" and b.__module__.startswith("pydantic"):
            return hasattr(t, "model_json_schema")
    return False


class _Recursive(Exception):
    pass


def _inline(s, defs, active):
    # $ref "#/$defs/X" replaced by the definition, so that the schema can
    # sit under a property; titles pydantic makes up (the class name, the
    # field name) dropped.
    if isinstance(s, list):
        return [_inline(x, defs, active) for x in s]
    if not isinstance(s, dict):
        return s
    ref = s.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        name = ref[len("#/$defs/"):]
        if name in active or name not in defs:
            raise _Recursive(name)
        inner = _inline(defs[name], defs, active | {name})
        if isinstance(inner, dict) and inner.get("title") == name:
            inner = {k: v for k, v in inner.items() if k != "title"}
        rest = {k: _inline(v, defs, active) for k, v in s.items() if k != "$ref"}
        if rest:
            merged = dict(inner)
            merged.update(rest)
            return merged
        return inner
    out = {}
    props = s.get("properties") if isinstance(s.get("properties"), dict) else None
    for k, v in s.items():
        if k == "$defs":
            continue
        if k == "properties" and props is not None:
            out[k] = {}
            for pn, pv in props.items():
                pv = _inline(pv, defs, active)
                if isinstance(pv, dict) and pv.get("title") == pn.replace("_", " ").title():
                    pv = {a: b for a, b in pv.items() if a != "title"}
                out[k][pn] = pv
            continue
        out[k] = _inline(v, defs, active)
    return out


def _drop_model_title(s, t):
    if isinstance(s, dict) and s.get("title") == t.__name__:
        s = {k: v for k, v in s.items() if k != "title"}
    return s


try:
    _EXTRAS = "include_extras" in inspect.signature(typing.get_type_hints).parameters
except (TypeError, ValueError):
    _EXTRAS = False


def _type_hints(obj, localns=None):
    # include_extras keeps Annotated (Python 3.9+; 3.8 has no Annotated)
    if _EXTRAS:
        return typing.get_type_hints(obj, localns=localns, include_extras=True)
    return typing.get_type_hints(obj, localns=localns)


def _hints(f, localns):
    # typing.get_type_hints with Annotated kept; when one annotation does
    # not resolve, the others still do (one at a time).
    notes = {}
    try:
        return _type_hints(f, localns), notes
    except Exception:
        pass
    hints = {}
    g = getattr(f, "__globals__", {})
    for name, ann in (getattr(f, "__annotations__", None) or {}).items():
        shim = types.FunctionType(_shim.__code__, g)
        shim.__annotations__ = {name: ann}
        try:
            hints[name] = _type_hints(shim, localns)[name]
        except Exception as e:
            notes[name] = "%s: %s" % (type(e).__name__, e)
    return hints, notes


def _shim():
    pass


def _resolve(res, mod, qualname):
    obj, owner = mod, None
    for part in qualname.split("."):
        owner = obj
        if isinstance(obj, type) and part in obj.__dict__:
            obj = obj.__dict__[part]
        else:
            obj = getattr(obj, part, None)
        if obj is None:
            return {"error": "the module has no %s after it was imported" % qualname}
    obj = getattr(obj, "__func__", obj)  # staticmethod, classmethod
    try:
        obj = inspect.unwrap(obj)
    except ValueError:
        pass
    if not isinstance(obj, types.FunctionType):
        # a decorator's object holding the function: LangChain's @tool
        # (.func), FastMCP's (.fn)
        for attr in ("func", "fn", "function"):
            inner = getattr(obj, attr, None)
            if isinstance(inner, types.FunctionType):
                obj = inner
                break
    if not isinstance(obj, types.FunctionType):
        return {"error": "%s is a %s after the module is imported, not a function" % (qualname, type(obj).__name__)}
    localns = dict(vars(owner)) if isinstance(owner, type) else None
    hints, notes = _hints(obj, localns)
    out = {"params": {}, "defaults": {}, "notes": notes}
    for name, h in hints.items():
        try:  # one odd annotation leaves the others resolved
            n = res.node(h)
        except Exception as e:
            notes[name] = "%s: %s" % (type(e).__name__, e)
            continue
        if name == "return":
            out["returns"] = n
        else:
            out["params"][name] = n
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        sig = None
    if sig is not None:
        for p in sig.parameters.values():
            if p.default is not inspect.Parameter.empty:
                val, ok = _jsonable(p.default)
                if ok:
                    out["defaults"][p.name] = val
    return out


def _main():
    path, modname, static_classes, names = sys.argv[1], sys.argv[2], set(json.loads(sys.argv[3])), sys.argv[4:]
    d = os.path.dirname(path)
    if os.path.basename(path) == "__init__.py":
        d = os.path.dirname(d)
    sys.path.insert(0, d)
    try:
        if modname in sys.modules:  # a name the interpreter already uses
            raise ImportError("shadowed")
        mod = importlib.import_module(modname)
    except ImportError as e:
        if str(e) != "shadowed" and getattr(e, "name", None) != modname:
            raise
        mod = None
    if mod is None or os.path.realpath(getattr(mod, "__file__", "") or "") != os.path.realpath(path):
        spec = importlib.util.spec_from_file_location("_toolctl_exec_" + modname, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = mod
        spec.loader.exec_module(mod)
    res = _Resolver(mod, static_classes)
    funcs = {}
    for q in names:
        try:
            funcs[q] = _resolve(res, mod, q)
        except Exception as e:
            funcs[q] = {"error": "%s: %s" % (type(e).__name__, e)}
    return {"functions": funcs, "classes": res.classes}


def _write(doc):
    try:
        data = json.dumps(doc, ensure_ascii=True)
    except (TypeError, ValueError, RecursionError) as e:
        data = json.dumps({"error": {"type": type(e).__name__, "message": "the description is not JSON: %s" % e}})
    with os.fdopen(_out_fd, "wb") as f:
        f.write(data.encode("ascii") + b"\n")


try:
    _doc = _main()
except BaseException as e:  # the module's import failed (or exited)
    tb = traceback.format_exception(type(e), e, e.__traceback__)
    _doc = {"error": {"type": type(e).__name__, "message": str(e)[:2000], "traceback": "".join(tb[-6:])[-4000:]}}
_write(_doc)
sys.stderr.flush()
os._exit(0)  # no atexit hook or thread of the module runs after this
