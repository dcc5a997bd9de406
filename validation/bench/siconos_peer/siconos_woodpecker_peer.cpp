// Siconos kernel peer of examples/woodpecker.nsm: the woodpecker toy (Glocker and Pfeiffer;
// siconos-tutorials examples/mechanics/Woodpecker) built with the Siconos C++ kernel API the way
// that tutorial builds it: one LagrangianLinearTIDS (M, stiffness K of the bird's spring, gravity
// as an external force), three LagrangianLinearTIR interactions (rows: normal, tangent) with
// NewtonImpactFrictionNSL, MoreauJeanOSI(theta) and a FrictionContact(2) problem with its
// default solver. Run by tests/peer/siconos_woodpecker.c against nsdae's run of the model.
//
//   siconos_woodpecker_peer H T THETA
//
// Prints one CSV row per step: t,y,der(y),phiM,der(phiM),phiS,der(phiS) (%.17g).
#include <SiconosKernel.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace {

// the model's constants (examples/woodpecker.nsm)
const double rO = 0.0025, rM = 0.0031, hM = 0.0058, lM = 0.010, lG = 0.015, hS = 0.02, lS = 0.0201;
const double mM = 0.0003, mS = 0.0045, JM = 5.0e-9, JS = 7.0e-7, c_phi = 0.0056, g = 9.81;
const double e1 = 0.5, e23 = 0.0, mu = 0.3;

std::shared_ptr<Interaction> contact(const double normal[3], const double tangent[3], double offset, double e)
{
    auto H = std::make_shared<SimpleMatrix>(2, 3);
    for (unsigned j = 0; j < 3; j++) {
        (*H)(0, j) = normal[j];
        (*H)(1, j) = tangent[j];
    }
    auto b = std::make_shared<SiconosVector>(2);
    (*b)(0) = offset;
    (*b)(1) = 0.0;
    auto law = std::make_shared<NewtonImpactFrictionNSL>(e, 0.0, mu, 2);
    return std::make_shared<Interaction>(law, std::make_shared<LagrangianLinearTIR>(H, b));
}

void print_row(double t, const LagrangianDS &ds)
{
    const SiconosVector &q = *ds.q(), &v = *ds.velocity();
    std::printf("%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", t, q(0), v(0), q(1), v(1), q(2), v(2));
}

int run(double h, double T, double theta)
{
    auto M = std::make_shared<SimpleMatrix>(3, 3);
    const double m[3][3] = {{mS + mM, mS * lM, mS * lG},
                            {mS * lM, JM + mS * lM * lM, mS * lM * lG},
                            {mS * lG, mS * lM * lG, JS + mS * lG * lG}};
    for (unsigned i = 0; i < 3; i++)
        for (unsigned j = 0; j < 3; j++) (*M)(i, j) = m[i][j];
    auto K = std::make_shared<SimpleMatrix>(3, 3);
    (*K)(1, 1) = c_phi;
    (*K)(1, 2) = -c_phi;
    (*K)(2, 1) = -c_phi;
    (*K)(2, 2) = c_phi;
    auto C = std::make_shared<SimpleMatrix>(3, 3);
    auto q0 = std::make_shared<SiconosVector>(3);
    auto v0 = std::make_shared<SiconosVector>(3);
    (*q0)(0) = 0.0;
    (*q0)(1) = -0.1036;
    (*q0)(2) = -0.2788;
    (*v0)(0) = -0.3411;
    (*v0)(1) = 4.8572e-15;
    (*v0)(2) = -7.4583;
    auto ds = std::make_shared<LagrangianLinearTIDS>(q0, v0, M, K, C);
    auto fext = std::make_shared<SiconosVector>(3);
    (*fext)(0) = -(mS + mM) * g;
    (*fext)(1) = -mS * lM * g;
    (*fext)(2) = -mS * lG * g;
    ds->setFExtPtr(fext);

    const double n1[3] = {0, 0, -hS}, t1[3] = {1, lM, lG - lS};
    const double n2[3] = {0, hM, 0}, n3[3] = {0, -hM, 0}, t23[3] = {1, rM, 0};
    auto nsds = std::make_shared<NonSmoothDynamicalSystem>(0.0, T);
    nsds->insertDynamicalSystem(ds);
    nsds->link(contact(n1, t1, lM + lG - lS - rO, e1), ds);
    nsds->link(contact(n2, t23, rM - rO, e23), ds);
    nsds->link(contact(n3, t23, rM - rO, e23), ds);

    auto sim = std::make_shared<TimeStepping>(nsds, std::make_shared<TimeDiscretisation>(0.0, h));
    sim->insertIntegrator(std::make_shared<MoreauJeanOSI>(theta));
    sim->insertNonSmoothProblem(std::make_shared<FrictionContact>(2));

    const long N = std::lround(T / h); /* the tutorial's floor(T / h) drops the last step to round-off */
    print_row(0.0, *ds);
    for (long k = 1; k <= N; k++) {
        sim->computeOneStep();
        print_row(sim->nextTime(), *ds);
        sim->nextStep();
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s H T THETA\n", argv[0]);
        return 2;
    }
    try {
        return run(std::atof(argv[1]), std::atof(argv[2]), std::atof(argv[3]));
    } catch (...) {
        std::fprintf(stderr, "%s: Siconos raised an exception\n", argv[0]);
        return 1;
    }
}
