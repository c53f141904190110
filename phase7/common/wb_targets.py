"""wb_targets.py — a checkpoint's target fields, and the target for a GPU model.

The Python twin of wb_meta.c's wb_target_parse / wb_target_for (the format is
documented in common/include/wb_meta.h): the same rules, the same messages,
tested on the same cases (common/tests/target_cases.tsv, by test_meta.c and
by check_wb_targets.py). wb_pytest.py uses it to pick the target for
torch.cuda.get_device_name(); wb_pyrun.py to check what the plugin recorded.

    >= 0.89 COPY | H200 >= 0.64 | B200 >= 0.70

The default target comes first; each further field is MODEL >= NUMBER (or
MODEL >= NUMBER YARDSTICK, the same yardstick), MODEL a whole word of the CUDA
device name ("NVIDIA H200"), ignoring case; the first model that matches
applies, the default everywhere else.

The standard library only: wb_pyrun.py imports it where pytest is absent.
"""

import re

MAX_MODELS = 4     # WB_MAX_MODELS, common/include/wb_meta.h
_YARD_CAP = 32     # wb_checkpoint.yard
_MODEL_CAP = 24    # wb_model_target.model
_TEXT_CAP = 512    # wb_target_parse's buffer
_SPACE = " \t\n\v\f\r"  # C's isspace, for trimming
_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_NUMBER = re.compile(r"[0-9]*\.?[0-9]*\Z")


class Targets:
    """A checkpoint's targets: the default, its yardstick, per-model ones in
    week.txt's order as [(model, target), ...]."""

    def __init__(self, target, yard, models):
        self.target, self.yard, self.models = target, yard, models

    def spec(self):
        """As week.txt writes them, %.15g numbers (wb_target_spec)."""
        s = ">= %.15g %s" % (self.target, self.yard)
        for m, t in self.models:
            s += " | %s >= %.15g" % (m, t)
        return s


def _number(tok):
    if not _NUMBER.match(tok) or not any(c.isdigit() for c in tok):
        return None
    v = float(tok)
    return v if v > 0 else None


def _valid_model(tok):
    return (all(c in _ALNUM or c in "-_" for c in tok)
            and any(c in _ALNUM and not c.isdigit() for c in tok))


def _lower(s):
    """ASCII lower case only, as strncasecmp compares in the C locale."""
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in s)


def parse(text):
    """Targets from a checkpoint's target fields; ValueError with what is
    wrong (wb_target_parse's message) otherwise."""
    if len(text.encode("utf-8")) >= _TEXT_CAP:
        raise ValueError("target fields too long")
    target, yard, models = 0.0, "", []
    for k, field in enumerate(text.split("|")):
        field = field.strip(_SPACE)
        tok = [t for t in re.split(r"[ \t]+", field) if t]
        if k == 0:
            t = _number(tok[1]) if len(tok) == 3 and tok[0] == ">=" else None
            if t is None:
                raise ValueError("target '%s' must read '>= NUMBER YARDSTICK' (NUMBER above 0; the default target "
                                 "comes first, then any '| MODEL >= NUMBER')" % field)
            if len(tok[2].encode("utf-8")) >= _YARD_CAP:
                raise ValueError("yardstick '%s' is too long" % tok[2])
            target, yard = t, tok[2]
        else:
            t = _number(tok[2]) if len(tok) in (3, 4) and tok[1] == ">=" else None
            if t is None or not _valid_model(tok[0]):
                raise ValueError("per-model target '%s' must read 'MODEL >= NUMBER' (MODEL a word of the GPU's name "
                                 "such as H200: letters, digits, '-', '_'; NUMBER above 0)" % field)
            if len(tok) == 4 and tok[3] != yard:
                raise ValueError("per-model target '%s' names yardstick %s, the default target %s: one yardstick "
                                 "for every GPU" % (field, tok[3], yard))
            if len(tok[0]) >= _MODEL_CAP:
                raise ValueError("model '%s' is too long" % tok[0])
            if any(_lower(m) == _lower(tok[0]) for m, _ in models):
                raise ValueError("model %s has two targets" % tok[0])
            if len(models) == MAX_MODELS:
                raise ValueError("more than %d per-model targets" % MAX_MODELS)
            models.append((tok[0], t))
    return Targets(target, yard, models)


def matches(device, model):
    """True when model is a whole word of the device name, ignoring case
    (wb_model_matches): "H200" is one of "NVIDIA H200", not of "NVIDIA H2000"."""
    if not device or not model:
        return False
    d, m = _lower(device), _lower(model)
    i = d.find(m)
    while i >= 0:
        before = i > 0 and device[i - 1] in _ALNUM
        after = i + len(m) < len(device) and device[i + len(m)] in _ALNUM
        if not before and not after:
            return True
        i = d.find(m, i + 1)
    return False


def target_for(t, device):
    """(target, model) for a run on the GPU named device (None or "": none
    known): the first model that matches, else (default, None)."""
    if t is None or not t.target > 0:
        return 0.0, None
    for m, v in t.models:
        if device and matches(device, m):
            return v, m
    return t.target, None


def target_text(t, device):
    """">= 0.64 COPY (H200)", ">= 0.89 COPY (default)" or ">= 0.89 COPY", as
    wb_target_text writes them; "" without a target."""
    v, m = target_for(t, device)
    if not v > 0:
        return ""
    if m:
        return ">= %.2f %s (%s)" % (v, t.yard, m)
    return ">= %.2f %s%s" % (v, t.yard, " (default)" if t.models else "")


def targets_all(t):
    """">= 0.89 COPY; H200 >= 0.64" (wb_targets_all); "" without a target."""
    if t is None or not t.target > 0:
        return ""
    return ">= %.2f %s" % (t.target, t.yard) + "".join("; %s >= %.2f" % (m, v) for m, v in t.models)
