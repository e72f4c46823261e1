# toolctl's python runner, passed to the interpreter with -c (nothing is
# written to disk). argv: PATH MODULE FUNCTION. It reads the input JSON on
# stdin, calls MODULE.FUNCTION with it and writes exactly one JSON document
# to the original stdout: {"ok": true, "result": ...} or {"ok": false,
# "error": {...}}. Everything the tool prints goes to stderr.
# Keep it compatible with Python 3.7.
import asyncio
import dataclasses
import functools
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


# The toolctl module a tool imports for rich results and its context
# (README "Rich results"): content item constructors, a result envelope,
# ToolError (a failure the model sees, not a crash) and Context, passed
# as the tool's ctx parameter, which reports progress and log messages on
# stderr lines the caller takes out ("##toolctl " and a JSON object).
class _Item(dict):
    pass


class _Result(dict):
    pass


class ToolError(Exception):
    """Raise it to fail with a message the model sees (isError)."""


def _b64(data):
    if isinstance(data, str):
        return data
    import base64

    return base64.b64encode(bytes(data)).decode("ascii")


def _extra(d, annotations, meta):
    if annotations is not None:
        d["annotations"] = annotations
    if meta is not None:
        d["_meta"] = meta
    return d


def _text(text, annotations=None, meta=None):
    return _extra(_Item(type="text", text=str(text)), annotations, meta)


def _image(data, mime_type="image/png", annotations=None, meta=None):
    return _extra(_Item(type="image", data=_b64(data), mimeType=mime_type), annotations, meta)


def _audio(data, mime_type="audio/wav", annotations=None, meta=None):
    return _extra(_Item(type="audio", data=_b64(data), mimeType=mime_type), annotations, meta)


def _resource(uri, text=None, blob=None, mime_type=None, annotations=None, meta=None):
    r = {"uri": uri}
    if mime_type is not None:
        r["mimeType"] = mime_type
    if blob is not None:
        r["blob"] = _b64(blob)
    else:
        r["text"] = "" if text is None else str(text)
    return _extra(_Item(type="resource", resource=r), annotations, meta)


def _resource_link(uri, name, title=None, description=None, mime_type=None, size=None, annotations=None, meta=None):
    d = _Item(type="resource_link", uri=uri, name=name)
    for k, v in (("title", title), ("description", description), ("mimeType", mime_type), ("size", size)):
        if v is not None:
            d[k] = v
    return _extra(d, annotations, meta)


def _items(content):
    if content is None:
        return []
    if isinstance(content, (dict, str)):
        content = [content]
    return [_text(c) if isinstance(c, str) else c for c in content]


def _result(content=None, structured_content=None, is_error=False, meta=None):
    d = _Result(content=_items(content))
    if structured_content is not None:
        d["structuredContent"] = structured_content
    if is_error:
        d["isError"] = True
    if meta is not None:
        d["_meta"] = meta
    return d


def _error(message):
    return _result([_text(message)], is_error=True)


def _notice(doc):
    if _ASK_NONCE:
        doc = dict(doc, nonce=_ASK_NONCE)
    line = "##toolctl " + _encode(doc) + "\n"
    try:
        sys.stderr.flush()
    except Exception:
        pass
    os.write(2, line.encode("utf-8"))


def _finite_number(v, what):
    # as the JavaScript ctx.progress: a notice the caller would drop (a
    # string, NaN) is the tool's mistake, reported where it is made
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise TypeError(what + " must be a finite number, not " + repr(v)[:40])
    return v


class Context(object):
    """The call's context: ctx.progress(done, total, message), ctx.log(level, message, data)."""

    def progress(self, progress, total=None, message=None):
        d = {"progress": _finite_number(progress, "ctx.progress: progress")}
        if total is not None:
            d["total"] = _finite_number(total, "ctx.progress: total")
        if message is not None:
            d["message"] = str(message)
        _notice(d)

    report_progress = progress

    def log(self, level, message, data=None, logger=None):
        d = {"log": level, "message": str(message)}
        if data is not None:
            d["data"] = data
        if logger is not None:
            d["logger"] = logger
        _notice(d)

    def debug(self, message, data=None):
        self.log("debug", message, data)

    def info(self, message, data=None):
        self.log("info", message, data)

    def warning(self, message, data=None):
        self.log("warning", message, data)

    def error(self, message, data=None):
        self.log("error", message, data)

    def sample(self, prompt, max_tokens=1000, system_prompt=None, temperature=None, stop_sequences=None,
               model_preferences=None, include_context=None, metadata=None):
        """Ask the client's model for a completion (MCP sampling/createMessage).

        prompt is the user message's text, a list of messages, or the
        request's whole params (a dict with "messages"). Returns the
        client's result: {"role", "content": {"type": "text", "text"}, "model", "stopReason"}.
        """
        if isinstance(prompt, dict):
            params = dict(prompt)
        elif isinstance(prompt, (list, tuple)):
            params = {"messages": list(prompt)}
        elif isinstance(prompt, str):
            params = {"messages": [{"role": "user", "content": {"type": "text", "text": prompt}}]}
        else:
            raise TypeError("ctx.sample: prompt must be a string, a list of messages or a dict of params, not " + type(prompt).__name__)
        params.setdefault("maxTokens", max_tokens)
        for k, v in (("systemPrompt", system_prompt), ("temperature", temperature), ("stopSequences", stop_sequences),
                     ("modelPreferences", model_preferences), ("includeContext", include_context), ("metadata", metadata)):
            if v is not None:
                params[k] = v
        return _ask("sampling/createMessage", params)

    def elicit(self, message, schema=None):
        """Ask the client's user for input (MCP elicitation/create).

        schema is the requestedSchema: an object schema of flat properties.
        Returns {"action": "accept" | "decline" | "cancel", "content": {...}}.
        """
        if isinstance(message, dict) and schema is None:
            params = dict(message)
        else:
            params = {"message": str(message)}
            if schema is not None:
                params["requestedSchema"] = schema
        params.setdefault("requestedSchema", {"type": "object", "properties": {}})
        return _ask("elicitation/create", params)


class AskError(Exception):
    """The client could not be asked, or answered ctx.sample/ctx.elicit with an error."""


class _Answer(dict):
    # The client's answer: a dict, which async tools may also await
    # (await ctx.sample(...)), as FastMCP's ctx methods are awaited.
    def __await__(self):
        if False:
            yield
        return self


_ANSWERS = None
_ASK_LOCK = None
_ASK_NONCE = None
_MAX_ASK = 1 << 20  # bytes of a request's params, as toolctl bounds them


def _ask(method, params):
    # The request goes out as a "##toolctl" line on stderr; toolctl writes
    # the answer as one line on the private copy of stdin.
    if _ANSWERS is None or not _ASK_NONCE:
        raise AskError("there is no MCP client to ask")
    encoded = _encode(params)
    if len(encoded) > _MAX_ASK:
        raise AskError("the %s request is %d bytes, more than the %d a request to the client may have" % (method, len(encoded), _MAX_ASK))
    with _ASK_LOCK:
        _notice({"ask": {"method": method, "params": json.loads(encoded)}})
        line = _ANSWERS.readline()
    if not line:
        raise AskError("no answer from toolctl to " + method)
    answer = json.loads(line.decode("utf-8"))
    if "error" in answer:
        raise AskError(answer["error"])
    result = answer.get("result")
    return _Answer(result) if isinstance(result, dict) else result


def _install_module():
    import types

    m = types.ModuleType("toolctl")
    m.__doc__ = "toolctl's helpers for tools it runs: rich results, progress and logging."
    for name, v in (
        ("text", _text),
        ("image", _image),
        ("audio", _audio),
        ("resource", _resource),
        ("resource_link", _resource_link),
        ("result", _result),
        ("error", _error),
        ("ToolError", ToolError),
        ("AskError", AskError),
        ("Context", Context),
    ):
        setattr(m, name, v)
    sys.modules["toolctl"] = m


def _content(result):
    # The result envelope of a rich result, None for a plain value.
    if isinstance(result, _Result):
        return dict(result)
    if isinstance(result, _Item):
        return {"content": [result]}
    if isinstance(result, (list, tuple)) and result and all(isinstance(x, _Item) for x in result):
        return {"content": list(result)}
    return None


def _wants_ctx(fn):
    try:
        p = inspect.signature(fn).parameters.get("ctx")
    except (TypeError, ValueError):
        return False
    return p is not None and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)


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
        # The nonce marks this runner's requests to the client: a line the
        # tool prints (say, text from its input) cannot pass for one.
        global _ASK_NONCE
        _ASK_NONCE = sys.argv[5] if len(sys.argv) > 5 else None
        # The input is the first line of stdin; the rest carries toolctl's
        # answers to ctx.sample/ctx.elicit, on a copy the tool and its
        # children cannot read (not inheritable, PEP 446; fd 0 is /dev/null).
        global _ANSWERS, _ASK_LOCK
        import threading

        data = json.loads(sys.stdin.buffer.readline().decode("utf-8"))
        _ANSWERS = os.fdopen(os.dup(0), "rb")
        _ASK_LOCK = threading.Lock()
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        sys.stdin = open(os.devnull)
        # -c puts the current directory first on sys.path: only the tool's
        # path should decide what the module name means.
        if sys.path and sys.path[0] == "":
            del sys.path[0]
        sys.path.insert(0, path)
        sys.dont_write_bytecode = True  # leave no __pycache__ in the tools directory
        _install_module()
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
            if _wants_ctx(fn) and "ctx" not in data:
                result = _call(functools.partial(fn, ctx=Context()), data, declared)
            else:
                result = _call(fn, data, declared)
            if inspect.isawaitable(result):
                result = asyncio.run(result if inspect.iscoroutine(result) else _await(result))
        except _ArgumentError as e:
            fail("arguments", type="TypeError", message=str(e))
            return 1
        except ToolError as e:
            result = _error(str(e))
        except BaseException as e:
            fail("call", e)
            return 1
        try:
            content = _content(result)
            if content is not None:
                text = _encode({"ok": True, "content": content})
            else:
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
