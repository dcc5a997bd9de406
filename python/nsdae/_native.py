"""ctypes declarations of the parts of libnsdae the module uses (include/nsdae/*.h).

The structures mirror the C layouts field by field up to the last field read; a structure the
module only receives by pointer may stop there. Keep them in step with the headers."""
import ctypes
import ctypes.util
import os

from . import _paths

c_int, c_long, c_double, c_char_p, c_void_p = ctypes.c_int, ctypes.c_long, ctypes.c_double, ctypes.c_char_p, ctypes.c_void_p
P = ctypes.POINTER


class Error(ctypes.Structure):            # status.h: nsdae_error
    _fields_ = [("status", c_int), ("message", ctypes.c_char * 512)]


class RunParam(ctypes.Structure):         # run.h
    _fields_ = [("name", c_char_p), ("value", c_double)]


class RunSettings(ctypes.Structure):
    _fields_ = [("scheme", c_char_p), ("stop", c_double), ("nsteps", c_long), ("step", c_double),
                ("theta", c_double), ("gamma", c_double), ("select_algebraic", c_int), ("skip_count", c_int),
                ("params", P(RunParam)), ("nparams", c_int)]


class RunColumns(ctypes.Structure):       # run_record.h
    _fields_ = [("n", c_int), ("names", P(c_char_p)), ("format", P(c_int))]


class TimeGrid(ctypes.Structure):         # time_grid.h
    _fields_ = [("t0", c_double), ("stop", c_double), ("h", c_double), ("n", c_long)]


class RunPlan(ctypes.Structure):          # run.h
    _fields_ = [("form", c_int), ("form_reason", c_char_p), ("scheme", c_int), ("theta", c_double),
                ("gamma", c_double), ("grid", TimeGrid), ("columns", RunColumns), ("ny", c_int), ("nl", c_int),
                ("ndof", c_int), ("ncontacts", c_int)]


class RunSummary(ctypes.Structure):
    _fields_ = [("steps", c_long), ("t_end", c_double), ("h", c_double), ("several", c_long),
                ("continuum", c_long), ("contact_steps", c_long)]


class FormDecision(ctypes.Structure):     # translate_form.h
    _fields_ = [("form", c_int), ("reason", c_char_p)]


class TranslateInfo(ctypes.Structure):    # translate.h
    _fields_ = [("ny", c_int), ("nl", c_int), ("nphases", c_int), ("y_role", P(c_int)), ("y_var", P(c_int)),
                ("l_var", P(c_int)), ("n_equality", c_int), ("n_complementarity", c_int), ("n_box", c_int)]


class Mlcs(ctypes.Structure):             # mlcs.h, up to the names
    _fields_ = [("ny", c_int), ("nl", c_int), ("nphases", c_int), ("phases", c_void_p), ("kind", P(c_int)),
                ("lo", P(c_double)), ("hi", P(c_double)), ("y0", P(c_double)), ("y_names", P(c_char_p)),
                ("l_names", P(c_char_p))]


class Lagrangian(ctypes.Structure):       # lagrangian.h, up to the names
    _fields_ = [("ndof", c_int), ("ncontacts", c_int), ("mass", c_void_p), ("forces", c_void_p),
                ("gaps", c_void_p), ("gap_jacobian", c_void_p), ("force_jacobian", c_void_p), ("mass_constant", c_int),
                ("mass_colptr", P(c_int)), ("mass_rows", P(c_int)), ("mass_values", c_void_p),
                ("gap_rowptr", P(c_int)), ("gap_cols", P(c_int)), ("gap_jacobian_values", c_void_p),
                ("gaps_linear", c_int), ("force_colptr", P(c_int)), ("force_rows", P(c_int)),
                ("force_jacobian_values", c_void_p), ("ctx", c_void_p), ("ctx_free", c_void_p), ("q0", P(c_double)),
                ("v0", P(c_double)), ("restitution", P(c_double)), ("friction", P(c_double)),
                ("tangent_jacobian", c_void_p), ("q_names", P(c_char_p)), ("c_names", P(c_char_p))]


class Switches(ctypes.Structure):         # mode.h, the counts
    _fields_ = [("n", c_int), ("ncode", c_int), ("sw", c_void_p)]


class Sigma(ctypes.Structure):            # structural.h
    _fields_ = [("neq", c_int), ("nvar", c_int), ("s", P(c_int)), ("eq_names", P(c_char_p)),
                ("var_names", P(c_char_p))]


class RestartRequest(ctypes.Structure):   # restart_report.h
    _fields_ = [("left", P(c_double)), ("time", c_double), ("from_", c_char_p), ("to", c_char_p),
                ("height", c_int), ("text", c_int)]


class Deriv(ctypes.Structure):
    _fields_ = [("var", c_int), ("order", c_int)]


class StructuralResult(ctypes.Structure):  # structural.h, up to the selected states
    _fields_ = [("neq", c_int), ("nvar", c_int), ("eq_names", P(c_char_p)), ("var_names", P(c_char_p)),
                ("verdict", c_int), ("eq_part", P(c_int)), ("var_part", P(c_int)), ("n_under_eq", c_int),
                ("n_under_var", c_int), ("n_over_eq", c_int), ("n_over_var", c_int), ("n_well", c_int),
                ("excess_eq", P(c_int)), ("n_excess", c_int), ("free_var", P(c_int)), ("n_free", c_int),
                ("transversal", P(c_int)), ("c", P(c_int)), ("d", P(c_int)), ("value", c_int), ("max_c", c_int),
                ("index", c_int), ("dof", c_int), ("states", P(Deriv)), ("nstates", c_int),
                ("dummies", P(Deriv)), ("ndummies", c_int), ("selected", P(Deriv)), ("nselected", c_int)]


class StructuralMode(ctypes.Structure):
    _fields_ = [("nswitches", c_int), ("choice", P(c_int)), ("code", c_char_p), ("label", c_char_p),
                ("neq", c_int), ("nvar", c_int), ("nrelax", c_int), ("residual", c_void_p), ("pool", c_void_p),
                ("origin", P(c_int)), ("var_names", P(c_char_p)), ("sigma", P(Sigma)),
                ("result", P(StructuralResult)), ("numeric_status", c_int), ("numeric_message", ctypes.c_char * 512)]


def _library_path():
    """NSDAE_LIBRARY, else the libnsdae installed with this package, else the loader's search."""
    if os.environ.get("NSDAE_LIBRARY"):
        return os.environ["NSDAE_LIBRARY"]
    here = os.path.dirname(os.path.abspath(__file__))
    installed = os.path.normpath(os.path.join(here, _paths.LIBDIR_FROM_PACKAGE, "libnsdae.so.%s" % _paths.SOVERSION))
    if os.path.exists(installed):
        return installed
    return ctypes.util.find_library("nsdae") or "libnsdae.so.%s" % _paths.SOVERSION


def _declare(lib):
    sig = {
        "nsdae_version": (c_char_p, []),
        "nsdae_git_commit": (c_char_p, []),
        "nsdae_strerror": (c_char_p, [c_int]),
        "nsdae_model_parse_file": (c_int, [c_char_p, P(c_void_p), P(Error)]),
        "nsdae_model_parse_string": (c_int, [c_char_p, ctypes.c_size_t, c_char_p, P(c_void_p), P(Error)]),
        "nsdae_model_destroy": (None, [c_void_p]),
        "nsdae_model_set_param": (c_int, [c_void_p, c_char_p, c_double, P(Error)]),
        "nsdae_translate_form": (FormDecision, [c_void_p]),
        "nsdae_translate_mlcs": (c_int, [c_void_p, P(P(Mlcs)), P(P(TranslateInfo)), P(Error)]),
        "nsdae_translate_info_free": (None, [P(TranslateInfo)]),
        "nsdae_mlcs_destroy": (None, [P(Mlcs)]),
        "nsdae_translate_lagrangian": (c_int, [c_void_p, P(P(Lagrangian)), P(Error)]),
        "nsdae_lagrangian_destroy": (None, [P(Lagrangian)]),
        "nsdae_run_prepare_model": (c_int, [c_void_p, P(RunSettings), P(c_void_p), P(Error)]),
        "nsdae_run_plan_of": (P(RunPlan), [c_void_p]),
        "nsdae_run_execute_rows": (c_int, [c_void_p, P(c_double), P(c_long), P(RunSummary), P(Error)]),
        "nsdae_run_destroy": (None, [c_void_p]),
        "nsdae_scheme_name": (c_char_p, [c_int]),
        "nsdae_form_name": (c_char_p, [c_int]),
        "nsdae_order_fit": (c_double, [P(c_double), P(c_double), c_int, P(c_int)]),
        "nsdae_mode_switches": (c_int, [c_void_p, P(P(Switches)), P(Error)]),
        "nsdae_mode_switches_destroy": (None, [P(Switches)]),
        "nsdae_mode_count": (c_double, [P(Switches)]),
        "nsdae_mode_first": (None, [P(Switches), P(c_int)]),
        "nsdae_mode_next": (c_int, [P(Switches), P(c_int)]),
        "nsdae_mode_parse": (c_int, [P(Switches), c_char_p, P(c_int), P(Error)]),
        "nsdae_structural_mode_analyze": (c_int, [c_void_p, P(Switches), P(c_int), P(P(StructuralMode)), P(Error)]),
        "nsdae_structural_mode_destroy": (None, [P(StructuralMode)]),
        "nsdae_structural_verdict_name": (c_char_p, [c_int]),
        "nsdae_structural_deriv_name": (None, [c_char_p, c_int, c_char_p, ctypes.c_size_t]),
        "nsdae_restart_parse_left": (c_int, [c_void_p, c_char_p, P(P(c_double)), P(c_double), P(Error)]),
        "nsdae_restart_report": (c_int, [c_void_p, P(RestartRequest), P(c_void_p), P(c_int), P(Error)]),
        "nsdae_restart_report_free": (None, [c_void_p]),
    }
    for name, (restype, argtypes) in sig.items():
        f = getattr(lib, name)
        f.restype = restype
        f.argtypes = argtypes
    return lib


lib = _declare(ctypes.CDLL(_library_path()))
