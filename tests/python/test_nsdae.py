"""The Python module against closed forms: the schemes' values on x' = -a x, exact free fall under
Moreau-Jean, Pryce's structural index of small DAEs, and the library's messages in exceptions.
Runs on the module found on PYTHONPATH (the build tree's, or an install prefix's)."""
import math
import os
import sys
import unittest

import numpy as np

import nsdae

SOURCE = os.environ.get("NSDAE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BALL = os.path.join(SOURCE, "examples", "bouncing_ball.nsm")
DECAY = open(os.path.join(SOURCE, "tests", "install", "decay.nsm")).read()

# der(x) = -y, 0 = y - x: Sigma-method offsets c = (0, 0), d = (1, 0), so the structural index is
# max c + 1 (some d_j = 0) = 1, one degree of freedom, state x (Pryce 2001).
INDEX1 = """model index1
  var x(start = 1);
  var y;
equation
  der(x) = -y;
  0 = y - x;
end index1;
"""


class Simulate(unittest.TestCase):
    def test_the_models_scheme(self):
        r = nsdae.simulate(DECAY)
        self.assertEqual(r["plan"]["scheme"], "theta")
        self.assertEqual(r["plan"]["theta"], 0.5)
        self.assertEqual(len(r["t"]), 11)
        self.assertEqual(r["t"][-1], 1.0)
        self.assertAlmostEqual(r["columns"]["x"][-1], (0.95 / 1.05) ** 10, delta=1e-13)
        k = np.arange(11)
        np.testing.assert_allclose(r["columns"]["x"], (0.95 / 1.05) ** k, rtol=0, atol=1e-13)

    def test_overrides(self):
        r = nsdae.simulate(DECAY, scheme="euler", steps=20)
        self.assertEqual(r["plan"]["theta"], 1.0)
        self.assertAlmostEqual(r["columns"]["x"][-1], (1 / 1.05) ** 20, delta=1e-13)
        r = nsdae.simulate(DECAY, stop=2, step=0.25, params={"a": 2})
        self.assertEqual(r["summary"]["steps"], 8)
        self.assertAlmostEqual(r["columns"]["x"][-1], (0.75 / 1.25) ** 8, delta=1e-13)

    def test_contact_form_free_fall_is_exact(self):
        r = nsdae.simulate(BALL, stop=0.4)
        self.assertEqual(r["plan"]["form"], "contact")
        self.assertEqual(r["plan"]["scheme"], "moreau")
        t, q = r["t"], r["columns"]["q"]
        np.testing.assert_allclose(q, 1 - 9.81 * t ** 2 / 2, rtol=0, atol=1e-12)


class Converge(unittest.TestCase):
    def test_implicit_euler_errors_and_order(self):
        steps = [10, 20, 40, 80]
        c = nsdae.converge(DECAY, steps, exact={"x": math.exp(-1)}, scheme="euler")
        self.assertEqual(c["compared"], ["x"])
        want = [abs((1 / (1 + 1 / n)) ** n - math.exp(-1)) for n in steps]
        np.testing.assert_allclose(c["error"], want, rtol=1e-10)
        self.assertEqual(c["used"], 4)
        self.assertAlmostEqual(c["order"], 1.0, delta=0.05)

    def test_against_the_finest_run(self):
        c = nsdae.converge(DECAY, [10, 20, 640])
        self.assertEqual(c["used"], 2)
        self.assertAlmostEqual(c["order"], 2.0, delta=0.05)   # the trapezoidal rule


class Check(unittest.TestCase):
    def test_mlcs_and_contact(self):
        c = nsdae.check(DECAY)
        self.assertEqual(c["form"], "mlcs")
        self.assertEqual(c["unknowns"], [{"name": "x", "role": "differential"}])
        self.assertEqual(c["nl"], 0)
        b = nsdae.check(BALL)
        self.assertEqual(b["form"], "contact")
        self.assertEqual(b["coordinates"], ["q"])
        self.assertEqual(b["contacts"][0]["restitution"], 0.9)


class Analyze(unittest.TestCase):
    def test_pryce_index(self):
        (m,) = nsdae.analyze(INDEX1)
        self.assertEqual(m["verdict"], "ok")
        self.assertEqual(m["index"], 1)
        self.assertEqual(m["dof"], 1)
        self.assertEqual(list(m["c"]), [0, 0])
        self.assertEqual(list(m["d"]), [1, 0])
        self.assertEqual(m["states"], ["x"])
        (d,) = nsdae.analyze(DECAY)
        self.assertEqual(d["index"], 0)


# Benveniste et al. 2026, (49) (digest 2.9): the rope becoming taut at p = (0.6, -0.8), L = 1, with
# v- = (1, -1), p.v- = 1.4: v+ = v- - (p.v-) p = (0.16, 0.12), percussion 1.4 (force -lambda p).
CUP_D1 = os.path.join(SOURCE, "examples", "restart", "cup_d1_height_two.nsm")
CUP = os.path.join(SOURCE, "examples", "cup_and_ball.nsm")
CUP_AT = {"x": 0.6, "y": -0.8, "der(x)": 1, "der(y)": -1, "der(der(y))": -9.81}


class Restart(unittest.TestCase):
    def test_inelastic_rope_at_the_papers_point(self):
        r = nsdae.restart(CUP_D1, at=CUP_AT)
        (tr,) = r["transitions"]
        self.assertEqual((tr["from"], tr["to"], tr["status"], tr["height"]), ("0", "1", "ok", 1))
        self.assertAlmostEqual(tr["restart"]["der(x)"], 0.16, delta=1e-12)
        self.assertAlmostEqual(tr["restart"]["der(y)"], 0.12, delta=1e-12)
        self.assertAlmostEqual(tr["restart"]["x"], 0.6, delta=1e-14)
        self.assertAlmostEqual(tr["impulses"]["lambda"], 1.4, delta=1e-12)
        # the contact form's rope force is -2 p rope: half the percussion, same velocities
        (tr,) = nsdae.restart(CUP, at="x=0.6,y=-0.8,der(x)=1,der(y)=-1,der(der(y))=-9.81", from_mode=1,
                              to_mode=0)["transitions"]
        self.assertAlmostEqual(tr["impulses"]["rope"], 0.7, delta=1e-12)
        self.assertAlmostEqual(tr["restart"]["der(y)"], 0.12, delta=1e-12)

    def test_every_change_and_the_d1_height(self):
        r = nsdae.restart(CUP_D1)
        self.assertEqual(r["model"], "cup_d1_height_two")
        self.assertEqual([(t["from"], t["to"]) for t in r["transitions"]], [("0", "1"), ("1", "0")])
        (d1, _) = nsdae.restart(CUP_D1, height=2)["transitions"]
        self.assertEqual(d1["status"], "partial")
        self.assertEqual(d1["impulse_orders"]["lambda@t*"], 2)   # Appendix D.1

    def test_refusals(self):
        bad = dict(CUP_AT, x=0.9)   # off the circle: the fact L^2 - (x^2 + y^2) = 0 has residual 0.45
        (tr,) = nsdae.restart(CUP_D1, at=bad, from_mode=0, to_mode=1)["transitions"]
        self.assertIn("residual 0.45", tr["restart_error"])
        with self.assertRaises(nsdae.NsdaeError) as e:
            nsdae.restart(CUP_D1, at=CUP_AT, from_mode=7, to_mode=1)
        self.assertEqual(e.exception.status, "invalid input")
        with self.assertRaises(nsdae.NsdaeError) as e:
            nsdae.restart(CUP_D1, at={"z": 1})
        self.assertIn("not a variable", str(e.exception))
        with self.assertRaises(nsdae.NsdaeError) as e:
            nsdae.restart(CUP_D1, at={"x": 0.1, "y": -0.1})
        self.assertIn("no guard", str(e.exception))


class Errors(unittest.TestCase):
    def test_messages_reach_python(self):
        with self.assertRaises(nsdae.NsdaeError) as e:
            nsdae.simulate("model m\n  var x;\nequation\n  der(x) = ;\nend m;\n")
        self.assertEqual(e.exception.status, "parse")
        self.assertIn("<string>:4:", str(e.exception))
        with self.assertRaises(nsdae.NsdaeError) as e:
            nsdae.simulate(DECAY, params={"b": 1})
        self.assertIn("b", str(e.exception))
        with self.assertRaises(nsdae.NsdaeError) as e:
            nsdae.simulate(DECAY, scheme="rk4")
        self.assertIn("scheme 'rk4' is not one of", str(e.exception))
        with self.assertRaises(nsdae.NsdaeError) as e:
            nsdae.simulate("/nonexistent/model.nsm")
        self.assertEqual(e.exception.status, "io")

    def test_version(self):
        v, commit = nsdae.version()
        self.assertEqual(v, os.environ.get("NSDAE_EXPECTED_VERSION", v))
        self.assertTrue(commit)


if __name__ == "__main__":
    unittest.main(verbosity=2, argv=sys.argv[:1])
