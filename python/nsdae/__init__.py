"""nsdae from Python: simulate, converge, check and analyze multi-mode (nonsmooth) DAE models.

A thin ctypes layer over the shared libnsdae (run.h, translate.h, structural.h): the model file
is parsed, translated and integrated by the library exactly as the `nsdae` command does it (form
and scheme from the model's experiment, every setting overridable), and results come back as
numpy arrays and dicts. Errors raise NsdaeError carrying the library's message.

    import nsdae
    r = nsdae.simulate("examples/diode_bridge.nsm", steps=1000)
    r["t"], r["columns"]["x"], r["plan"]["scheme"]

`model` is a path to a .nsm file, or the model text itself (any string with a newline).
"""
import ctypes
import os

import numpy as np

import json

from ._native import (Error, Lagrangian, Mlcs, RestartRequest, RunParam, RunSettings, RunSummary, StructuralMode,
                      Switches, TranslateInfo, lib)

__all__ = ["NsdaeError", "simulate", "converge", "check", "analyze", "restart", "version"]

_STATUS = ["ok", "invalid input", "no solution", "numerical", "parse", "unsupported", "no memory", "io", "limit"]


class NsdaeError(Exception):
    """A library failure: .status is the nsdae_status name, str() the library's message."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = _STATUS[status] if 0 <= status < len(_STATUS) else str(status)


def _check(status, err):
    if status != 0:
        raise NsdaeError(status, err.message.decode(errors="replace") or lib.nsdae_strerror(status).decode())


def version():
    """The library's version and git commit, e.g. ("0.1.0", "3d9bd34a1b2c")."""
    return lib.nsdae_version().decode(), lib.nsdae_git_commit().decode()


class _Model:
    """A parsed model (owned), with parameter overrides applied."""

    def __init__(self, model, params=None):
        err = Error()
        self.ptr = ctypes.c_void_p()
        text = model if isinstance(model, (bytes, str)) else os.fspath(model)
        text = text.decode() if isinstance(text, bytes) else text
        if isinstance(text, str) and "\n" in text:
            data = text.encode()
            st = lib.nsdae_model_parse_string(data, len(data), b"<string>", ctypes.byref(self.ptr), ctypes.byref(err))
        else:
            st = lib.nsdae_model_parse_file(os.fsencode(text), ctypes.byref(self.ptr), ctypes.byref(err))
        _check(st, err)
        for name, value in (params or {}).items():
            _check(lib.nsdae_model_set_param(self.ptr, name.encode(), float(value), ctypes.byref(err)), err)

    def close(self):
        if self.ptr:
            lib.nsdae_model_destroy(self.ptr)
            self.ptr = ctypes.c_void_p()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _settings(stop, step, steps, scheme, theta, gamma, select_all, count):
    s = RunSettings()
    s.scheme = scheme.encode() if scheme else None
    s.stop = float(stop or 0)
    s.step = float(step or 0)
    s.nsteps = int(steps or 0)
    s.theta = float(theta or 0)
    s.gamma = float(gamma or 0)
    s.select_algebraic = 1 if select_all else 0
    s.skip_count = 0 if count else 1
    return s


def _names(ptr, n):
    return [ptr[i].decode() for i in range(n)]


def _plan_dict(p):
    return {"form": lib.nsdae_form_name(p.form).decode(), "form_reason": p.form_reason.decode(),
            "scheme": lib.nsdae_scheme_name(p.scheme).decode(), "theta": p.theta,
            "gamma": p.gamma if p.gamma > 0 else None, "stop": p.grid.stop, "h": p.grid.h, "steps": p.grid.n,
            "ny": p.ny, "nl": p.nl, "ndof": p.ndof, "ncontacts": p.ncontacts}


def simulate(model, *, stop=None, step=None, steps=None, scheme=None, theta=None, gamma=None, params=None,
             select_all=False, count=True):
    """Integrates the model; returns a dict:
        t        (N+1,) times; rows  (N+1, 1 + ncol) the whole table, t first
        columns  {name: (N+1,) array} in the command's CSV order (unknowns, multipliers, nsol, res;
                 contact form: q, der(q), P_c, active_c, res)
        plan     form, scheme, theta, gamma, stop, h, steps, sizes: what the run did
        summary  steps, t_end, h, several, continuum, contact_steps
    Settings left None come from the model's experiment, as in the command: stop (else 1),
    step or steps (not both; else 100 steps), scheme ("minnorm", "euler", "theta", "moreau"),
    theta, gamma; params overrides parameters by name."""
    with _Model(model) as m:
        s = _settings(stop, step, steps, scheme, theta, gamma, select_all, count)
        pv = [RunParam(k.encode(), float(v)) for k, v in (params or {}).items()]
        arr = (RunParam * max(1, len(pv)))(*pv)
        s.params, s.nparams = ctypes.cast(arr, ctypes.POINTER(RunParam)), len(pv)
        err, run = Error(), ctypes.c_void_p()
        _check(lib.nsdae_run_prepare_model(m.ptr, ctypes.byref(s), ctypes.byref(run), ctypes.byref(err)), err)
        try:
            p = lib.nsdae_run_plan_of(run).contents
            names = _names(p.columns.names, p.columns.n)
            plan = _plan_dict(p)
            rows = np.zeros((p.grid.n + 1, 1 + p.columns.n))
            nrows, summary = ctypes.c_long(0), RunSummary()
            st = lib.nsdae_run_execute_rows(run, rows.ctypes.data_as(ctypes.POINTER(ctypes.c_double)),
                                            ctypes.byref(nrows), ctypes.byref(summary), ctypes.byref(err))
            _check(st, err)
        finally:
            lib.nsdae_run_destroy(run)
    rows = rows[: nrows.value]
    return {"t": rows[:, 0], "rows": rows, "columns": {n: rows[:, 1 + j] for j, n in enumerate(names)},
            "plan": plan, "summary": {k: getattr(summary, k) for k, _ in RunSummary._fields_}}


def _compared_columns(model, params):
    """The state a convergence study compares: the differential unknowns (MLCS), q and der(q) (contact)."""
    info = check(model, params=params)
    if info["form"] == "contact":
        return info["coordinates"] + ["der(%s)" % q for q in info["coordinates"]]
    return [u["name"] for u in info["unknowns"] if u["role"] == "differential"]


def converge(model, steps, *, exact=None, **settings):
    """Runs the model with each step count in `steps` and measures the error of the final state
    (differential unknowns; contact form: q and der(q)), max-norm, against `exact` (a dict
    name -> value, or a sequence in the compared order) or else against the finest run (then not
    fitted). Returns {"steps", "h", "error" (arrays), "compared" (names), "order" (least-squares
    slope of log error against log h, nsdae_order_fit), "used" (points fitted)}."""
    steps = sorted(int(n) for n in steps)
    if len(steps) < 2:
        raise ValueError("converge: give at least two step counts")
    runs = [simulate(model, steps=n, **settings) for n in steps]
    names = _compared_columns(model, settings.get("params"))
    finals = np.array([[r["columns"][c][-1] for c in names] for r in runs])
    if exact is None:
        ref, fitted = finals[-1], slice(0, len(steps) - 1)
    else:
        ref = np.array([exact[c] for c in names] if isinstance(exact, dict) else exact, dtype=float)
        fitted = slice(0, len(steps))
    err = np.max(np.abs(finals - ref), axis=1)
    h = np.array([r["plan"]["h"] for r in runs])
    hf, ef = np.ascontiguousarray(h[fitted]), np.ascontiguousarray(err[fitted])
    used = ctypes.c_int(0)
    dp = ctypes.POINTER(ctypes.c_double)
    order = lib.nsdae_order_fit(hf.ctypes.data_as(dp), ef.ctypes.data_as(dp), len(hf), ctypes.byref(used))
    return {"steps": np.array(steps), "h": h, "error": err, "compared": names, "order": order,
            "used": used.value, "reference": "exact" if exact is not None else "finest run"}


_ROLES = ["differential", "algebraic", "multiplier"]
_ROWS = ["equality", "complementarity", "box"]


def check(model, *, params=None):
    """Parses and translates the model; returns its form and why, and the system's unknowns:
    MLCS: unknowns [{name, role}], multipliers [{name, kind}], phases, row counts;
    contact form: coordinates, contacts with their restitution."""
    with _Model(model, params) as m:
        form = lib.nsdae_translate_form(m.ptr)
        out = {"form": lib.nsdae_form_name(form.form).decode(), "form_reason": form.reason.decode()}
        err = Error()
        if form.form == 1:
            s = ctypes.POINTER(Lagrangian)()
            _check(lib.nsdae_translate_lagrangian(m.ptr, ctypes.byref(s), ctypes.byref(err)), err)
            c = s.contents
            out.update({"ndof": c.ndof, "ncontacts": c.ncontacts, "coordinates": _names(c.q_names, c.ndof),
                        "contacts": [{"name": c.c_names[k].decode(), "restitution": c.restitution[k]}
                                     for k in range(c.ncontacts)]})
            lib.nsdae_lagrangian_destroy(s)
            return out
        s, info = ctypes.POINTER(Mlcs)(), ctypes.POINTER(TranslateInfo)()
        _check(lib.nsdae_translate_mlcs(m.ptr, ctypes.byref(s), ctypes.byref(info), ctypes.byref(err)), err)
        c, i = s.contents, info.contents
        out.update({"ny": c.ny, "nl": c.nl, "nphases": c.nphases,
                    "unknowns": [{"name": c.y_names[k].decode(), "role": _ROLES[i.y_role[k]]} for k in range(c.ny)],
                    "multipliers": [{"name": c.l_names[k].decode(), "kind": _ROWS[c.kind[k]]} for k in range(c.nl)],
                    "rows": {"equality": i.n_equality, "complementarity": i.n_complementarity, "box": i.n_box}})
        lib.nsdae_translate_info_free(info)
        lib.nsdae_mlcs_destroy(s)
        return out


def _derivs(ptr, n, var_names):
    buf = ctypes.create_string_buffer(256)
    out = []
    for k in range(n):
        lib.nsdae_structural_deriv_name(var_names[ptr[k].var], ptr[k].order, buf, len(buf))
        out.append(buf.value.decode())
    return out


def analyze(model, *, modes=None, params=None, max_modes=1000):
    """Structural analysis (Pryce's Sigma-method, dummy derivatives) of every mode, or of the
    modes named by their codes (e.g. ["0.1"]). Returns a list of dicts, one per mode: code, label,
    verdict, index, dof, equations, unknowns, offsets c and d, states, selected_states, dummies."""
    with _Model(model, params) as m:
        err, sw = Error(), ctypes.POINTER(Switches)()
        _check(lib.nsdae_mode_switches(m.ptr, ctypes.byref(sw), ctypes.byref(err)), err)
        try:
            choice = (ctypes.c_int * max(1, sw.contents.n))()
            todo = list(modes) if modes is not None else None
            if todo is None:
                lib.nsdae_mode_first(sw, choice)
            out, more = [], True
            while more and len(out) < max_modes:
                if todo is not None:
                    if not todo:
                        break
                    _check(lib.nsdae_mode_parse(sw, str(todo.pop(0)).encode(), choice, ctypes.byref(err)), err)
                md = ctypes.POINTER(StructuralMode)()
                _check(lib.nsdae_structural_mode_analyze(m.ptr, sw, choice, ctypes.byref(md), ctypes.byref(err)), err)
                out.append(_mode_dict(md.contents))
                lib.nsdae_structural_mode_destroy(md)
                more = todo is not None or bool(lib.nsdae_mode_next(sw, choice))
            return out
        finally:
            lib.nsdae_mode_switches_destroy(sw)


def _mode_dict(md):
    r, sg = md.result.contents, md.sigma.contents
    var = md.var_names
    well = r.verdict == 0
    return {"code": md.code.decode(), "label": md.label.decode(),
            "verdict": lib.nsdae_structural_verdict_name(r.verdict).decode(),
            "index": r.index if well else None, "dof": r.dof if well else None,
            "equations": _names(sg.eq_names, sg.neq), "unknowns": _names(var, md.nvar),
            "c": np.array([r.c[i] for i in range(r.neq)]), "d": np.array([r.d[j] for j in range(r.nvar)]),
            "states": _derivs(r.states, r.nstates, var), "selected_states": _derivs(r.selected, r.nselected, var),
            "dummies": _derivs(r.dummies, r.ndummies, var)}


def restart(model, at=None, params=None, from_mode=None, to_mode=None, height=None):
    """Restart analysis of the model's mode changes (nsdae restart --json): the parsed report,
    {"model", "transitions": [{"from", "to", "via", "status", "diagnostics", "height", "impulse_orders",
    "restart_equations", "undetermined", ...}]}. With at (left limits: a dict such as {"x": 0.6,
    "der(x)": 1, "time": 1}, or the text "x=0.6,der(x)=1"), the numeric restart of one change: the one
    whose guard is crossed there, or from_mode -> to_mode (codes of analyze); its transition then
    has "restart" and "impulses", or "restart_error" saying why there is none. height: analyse the
    array at that K only."""
    if (from_mode is None) != (to_mode is None):
        raise ValueError("give both from_mode and to_mode, or neither")
    if from_mode is not None and at is None:
        raise ValueError("from_mode and to_mode name the change of a numeric restart: give at too")
    with _Model(model, params) as m:
        err = Error()
        req = RestartRequest()
        req.height = -1 if height is None else int(height)
        left = ctypes.POINTER(ctypes.c_double)()
        if at is not None:
            text = at if isinstance(at, str) else ",".join("%s=%r" % (k, float(v)) for k, v in at.items())
            t = ctypes.c_double()
            _check(lib.nsdae_restart_parse_left(m.ptr, text.encode(), ctypes.byref(left), ctypes.byref(t),
                                                ctypes.byref(err)), err)
            req.left, req.time = left, t.value
        req.from_ = None if from_mode is None else str(from_mode).encode()
        req.to = None if to_mode is None else str(to_mode).encode()
        out, failed = ctypes.c_void_p(), ctypes.c_int()
        try:
            _check(lib.nsdae_restart_report(m.ptr, ctypes.byref(req), ctypes.byref(out), ctypes.byref(failed),
                                            ctypes.byref(err)), err)
            return json.loads(ctypes.string_at(out).decode())
        finally:
            lib.nsdae_restart_report_free(out)
            lib.nsdae_restart_report_free(ctypes.cast(left, ctypes.c_void_p))
