# toolctl's python runner, passed to the interpreter with -c (nothing is
# written to disk). argv: PATH MODULE FUNCTION. It reads the input JSON on
# stdin, calls MODULE.FUNCTION with it and writes exactly one JSON document
# to the original stdout: {"ok": true, "result": ...} or {"ok": false,
# "error": {...}}. Everything the tool prints goes to stderr.
# Keep it compatible with Python 3.7.
import asyncio
import dataclasses
import importlib
import inspect
import json
import math
import os
import sys
import traceback


def _protocol_channel():
    # A private copy of stdout carries the result; fd 1 then points at
    # stderr, so neither print() nor a child process can corrupt it. The
    # copy is not inheritable (PEP 446), so children do not hold it open.
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return out


_IMPORTLIB = os.path.dirname(importlib.__file__) + os.sep


def _user_frames(stack):
    # Frames of this runner (<string>) and of importlib are noise.
    return [
        f
        for f in stack
        if f.filename != "<string>" and not f.filename.startswith("<frozen") and not f.filename.startswith(_IMPORTLIB)
    ]


def _describe(exc):
    t = type(exc)
    name = t.__qualname__
    if t.__module__ not in ("builtins", "__main__"):
        name = t.__module__ + "." + name
    te = traceback.TracebackException.from_exception(exc)
    frames = _user_frames(te.stack)
    te.stack = traceback.StackSummary.from_list(frames)
    err = {"type": name, "message": str(exc), "traceback": "".join(te.format())}
    if isinstance(exc, SyntaxError) and exc.filename and exc.lineno:
        err["file"] = exc.filename
        err["line"] = exc.lineno
        err["message"] = exc.msg
    elif frames:
        err["file"] = frames[-1].filename
        err["line"] = frames[-1].lineno
    return err


def _default(o):
    # Values json cannot encode: common containers and objects first, then
    # their text.
    if isinstance(o, (set, frozenset)):
        return list(o)
    if isinstance(o, (bytes, bytearray)):
        return bytes(o).decode("utf-8", "replace")
    if dataclasses.is_dataclass(o) and not isinstance(o, type):
        return dataclasses.asdict(o)
    if hasattr(o, "isoformat") and callable(o.isoformat):
        return o.isoformat()
    for name in ("model_dump", "to_dict", "_asdict"):
        f = getattr(o, name, None)
        if callable(f):
            try:
                return f()
            except Exception:
                pass
    if hasattr(o, "__iter__") and not isinstance(o, (str, dict)):
        return list(o)
    return str(o)


def _finite(o):
    # NaN and infinities have no JSON form: null, as JavaScript does.
    if isinstance(o, float) and (math.isnan(o) or math.isinf(o)):
        return None
    if isinstance(o, dict):
        return {k: _finite(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [_finite(v) for v in o]
    return o


def _encode(doc):
    try:
        return json.dumps(doc, default=_default, allow_nan=False)
    except ValueError:
        # out-of-range floats: encode once plainly, then clean
        plain = json.loads(json.dumps(doc, default=_default))
        return json.dumps(_finite(plain), allow_nan=False)


def _call(fn, data, declared):
    # **input when the function takes the input's keys as keywords; the
    # input as one argument (def tool(params): ...) only when none of its
    # parameters is named like an input key or a declared parameter, so a
    # missing argument of def tool(text, limit=5) is reported as such.
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return fn(**data)
    kw_err = None
    try:
        sig.bind(**data)
    except TypeError as e:
        kw_err = e
    if kw_err is None:
        return fn(**data)
    named = set(sig.parameters) & (set(data) | set(declared))
    single_err = kw_err
    if not named:
        try:
            sig.bind(data)
            single_err = None
        except TypeError:
            pass
    if single_err is not None:
        raise _ArgumentError(
            "%s%s cannot take the input %s: %s"
            % (getattr(fn, "__name__", "function"), sig, sorted(data), kw_err)
        )
    return fn(data)


class _ArgumentError(Exception):
    pass


async def _await(a):
    return await a


def _main():
    proto = _protocol_channel()
    code = 1

    def finish(doc):
        proto.write(_encode(doc))
        proto.write("\n")
        proto.flush()

    def fail(phase, exc=None, **extra):
        err = _describe(exc) if exc is not None else {}
        err.update(extra)
        err["phase"] = phase
        finish({"ok": False, "error": err})

    try:
        path, module_name, func_name = sys.argv[1:4]
        declared = json.loads(sys.argv[4]) if len(sys.argv) > 4 else []
        data = json.loads(sys.stdin.buffer.read().decode("utf-8"))
        sys.stdin = open(os.devnull)
        # -c puts the current directory first on sys.path: only the tool's
        # path should decide what the module name means.
        if sys.path and sys.path[0] == "":
            del sys.path[0]
        sys.path.insert(0, path)
        sys.dont_write_bytecode = True  # leave no __pycache__ in the tools directory
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as e:
            missing = e.name or ""
            if missing == module_name or module_name.startswith(missing + "."):
                fail("module_not_found", e)
            else:
                fail("import", e)
            return 1
        except BaseException as e:
            fail("import", e)
            return 1
        # Class.method: a static or class method (import --from python)
        fn = module
        for part in func_name.split("."):
            fn = getattr(fn, part, None)
            if fn is None:
                break
        if fn is None or not callable(fn):
            fail(
                "function",
                type="AttributeError",
                message="module %s (%s) has %s"
                % (
                    module_name,
                    getattr(module, "__file__", path),
                    "no function " + func_name if fn is None else func_name + ", but it is not callable",
                ),
            )
            return 1
        try:
            result = _call(fn, data, declared)
            if inspect.isawaitable(result):
                result = asyncio.run(result if inspect.iscoroutine(result) else _await(result))
        except _ArgumentError as e:
            fail("arguments", type="TypeError", message=str(e))
            return 1
        except BaseException as e:
            fail("call", e)
            return 1
        try:
            text = _encode({"ok": True, "result": result})
        except BaseException as e:
            fail("result", e)
            return 1
        proto.write(text)
        proto.write("\n")
        proto.flush()
        code = 0
    except BaseException as e:
        fail("runner", e)
    return code


_code = _main()
try:
    sys.stderr.flush()
    sys.__stdout__.flush()
except Exception:
    pass
# Exit at once: a non-daemon thread left by the tool must not hold the call
# until the timeout.
os._exit(_code)
