"""wbk.py — Python bindings of libwbk (week 20), through ctypes.

The standard library only (ctypes, array): no numpy, no torch. Arrays are
Python sequences of numbers, or array.array('f') (passed without a copy);
results come back as array.array('f').

    import wbk
    with wbk.Context() as ctx:                  # every GPU; Context(devices=[0, 0]) splits on one
        y = ctx.saxpy(2.0, [1, 2, 3], [1, 1, 1])
        y, mean, std = ctx.standardize(x)
        ctx.transpose(m, rows, cols)

Errors: every status the library returns becomes an exception carrying the
library's own message (wbk_last_error):
    ArgumentError (a ValueError)   WBK_ERR_INVALID_ARG, WBK_ERR_INVALID_HANDLE
    OutOfMemory   (a MemoryError)  WBK_ERR_OUT_OF_MEMORY
    DeviceError   (a RuntimeError) WBK_ERR_NO_DEVICE, WBK_ERR_CUDA
all of them WbkError, with .status and .name. A bad argument never reaches
the GPU: the library checks arguments before anything else, even before the
context, so Context(open=False) (no device needed) still checks them.

Which library: $WBK_LIBRARY if set, else libwbk.so.1 beside this file's
folder (the installed layout: PREFIX/lib/python/wbk.py, PREFIX/lib/libwbk.so.1),
else the loader's search path. The library's major version must be the one
this module was written for (ABI_MAJOR): another is refused at import.
"""

import array
import ctypes
import os

ABI_MAJOR = 1
_STATUS_NAMES = ("WBK_OK", "WBK_ERR_INVALID_ARG", "WBK_ERR_INVALID_HANDLE", "WBK_ERR_NO_DEVICE",
                 "WBK_ERR_OUT_OF_MEMORY", "WBK_ERR_CUDA")


def _find_library():
    env = os.environ.get("WBK_LIBRARY")
    if env:
        return env
    beside = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "libwbk.so.1")
    return beside if os.path.exists(beside) else "libwbk.so.1"


_lib = ctypes.CDLL(_find_library())

_P = ctypes.POINTER
_f = ctypes.c_float
_sz = ctypes.c_size_t
_ctx = ctypes.c_void_p


class _Stats(ctypes.Structure):
    _fields_ = [("mean", ctypes.c_double), ("std", ctypes.c_double)]


def _sig(name, restype, *argtypes):
    fn = getattr(_lib, name)
    fn.restype, fn.argtypes = restype, list(argtypes)
    return fn


_version = _sig("wbk_version", ctypes.c_int)
_status_name = _sig("wbk_status_name", ctypes.c_char_p, ctypes.c_int)
_status_string = _sig("wbk_status_string", ctypes.c_char_p, ctypes.c_int)
_last_error = _sig("wbk_last_error", ctypes.c_char_p)
_create = _sig("wbk_create", ctypes.c_int, _P(_ctx), ctypes.c_int)
_create_on = _sig("wbk_create_on", ctypes.c_int, _P(_ctx), _P(ctypes.c_int), ctypes.c_int)
_destroy = _sig("wbk_destroy", ctypes.c_int, _ctx)
_device_count = _sig("wbk_device_count", ctypes.c_int, _ctx, _P(ctypes.c_int))
_saxpy = _sig("wbk_saxpy", ctypes.c_int, _ctx, _f, _P(_f), _sz, _P(_f), _sz)
_dot = _sig("wbk_dot", ctypes.c_int, _ctx, _P(_f), _sz, _P(_f), _sz, _P(ctypes.c_double))
_sum = _sig("wbk_sum", ctypes.c_int, _ctx, _P(_f), _sz, _P(ctypes.c_double))
_transpose = _sig("wbk_transpose", ctypes.c_int, _ctx, _P(_f), _sz, _P(_f), _sz, ctypes.c_int, ctypes.c_int)
_standardize = _sig("wbk_standardize", ctypes.c_int, _ctx, _P(_f), _sz, _P(_f), _sz, _P(_Stats))


def version():
    """The loaded library's version, (major, minor, patch)."""
    v = _version()
    return (v // 10000, v // 100 % 100, v % 100)


if version()[0] != ABI_MAJOR:
    raise ImportError("libwbk %d.%d.%d was loaded, but this module needs major version %d" % (version() + (ABI_MAJOR,)))


class WbkError(Exception):
    """A status other than WBK_OK; str() is the library's message."""

    def __init__(self, message, status):
        super().__init__(message)
        self.status = status
        self.name = status_name(status)


class ArgumentError(WbkError, ValueError):
    pass


class OutOfMemory(WbkError, MemoryError):
    pass


class DeviceError(WbkError, RuntimeError):
    pass


_CLASS = {1: ArgumentError, 2: ArgumentError, 3: DeviceError, 4: OutOfMemory, 5: DeviceError}


def status_name(status):
    return _status_name(status).decode()


def status_string(status):
    return _status_string(status).decode()


def _check(status):
    if status != 0:
        msg = _last_error().decode() or status_string(status)
        raise _CLASS.get(status, WbkError)(msg, status)


def _floats(seq):
    """A ctypes float array of seq's numbers (array.array('f') is shared, not copied), and its length."""
    if isinstance(seq, array.array) and seq.typecode == "f":
        n = len(seq)
        return ((_f * n).from_buffer(seq) if n else (_f * 1)()), n
    seq = list(seq)
    return (_f * max(len(seq), 1))(*seq), len(seq)


def _out(n):
    """A new array.array('f') of n elements, and a ctypes view of it."""
    a = array.array("f", bytes(4 * n))
    return a, ((_f * n).from_buffer(a) if n else (_f * 1)())


class Context:
    """A library context (wbk_ctx) on max_devices GPUs (0: all), or on the
    listed devices (a device may repeat). open=False makes a context with
    no device: every call still has its arguments checked by the library,
    then raises ArgumentError (the context is NULL)."""

    def __init__(self, max_devices=0, devices=None, open=True):
        self._h = _ctx()
        if not open:
            return
        if devices is not None:
            devs = list(devices)
            _check(_create_on(ctypes.byref(self._h), (ctypes.c_int * max(len(devs), 1))(*devs), len(devs)))
        else:
            _check(_create(ctypes.byref(self._h), max_devices))

    def close(self):
        if self._h:
            _destroy(self._h)
        self._h = _ctx()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    @property
    def device_count(self):
        c = ctypes.c_int(0)
        _check(_device_count(self._h, ctypes.byref(c)))
        return c.value

    def saxpy(self, a, x, y):
        """a * x + y, as a new array (y is not changed)."""
        xb, nx = _floats(x)
        yo = array.array("f", y)  # a copy, which the library overwrites
        yb = (_f * len(yo)).from_buffer(yo) if len(yo) else (_f * 1)()
        _check(_saxpy(self._h, a, xb, nx, yb, len(yo)))
        return yo

    def dot(self, x, y):
        xb, nx = _floats(x)
        yb, ny = _floats(y)
        r = ctypes.c_double(0)
        _check(_dot(self._h, xb, nx, yb, ny, ctypes.byref(r)))
        return r.value

    def sum(self, x):
        xb, n = _floats(x)
        r = ctypes.c_double(0)
        _check(_sum(self._h, xb, n, ctypes.byref(r)))
        return r.value

    def transpose(self, m, rows, cols):
        """m (rows x cols, row-major, flat) transposed: cols x rows, flat."""
        mb, n = _floats(m)
        out, ob = _out(n)
        _check(_transpose(self._h, mb, n, ob, n, rows, cols))
        return out

    def standardize(self, x):
        """(y, mean, std): y = (x - mean) / std, x's population mean and std."""
        xb, n = _floats(x)
        out, ob = _out(n)
        st = _Stats()
        _check(_standardize(self._h, xb, n, ob, n, ctypes.byref(st)))
        return out, st.mean, st.std
