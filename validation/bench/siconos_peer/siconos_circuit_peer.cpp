// Siconos kernel peer of nsdae's theta-gamma scheme on two switched circuits, each written in
// Siconos' own first-order linear form (x' = A x + r, r = B lambda, y = C x + D lambda,
// 0 <= y _|_ lambda >= 0), integrated by Siconos' EulerMoreauOSI with an LCP per step:
//
//   diode_bridge  the four-diode bridge of siconos-tutorials examples/electronics/DiodeBridge:
//                 x = (tank voltage v, inductor current iL), L = 1e-2, C = 1e-6, R = 1e3,
//                 v(0) = 10, lambda = (two diode voltages, two diode currents);
//   rlcd          the RLC + diode circuit of examples/electronics/Circuit-ThetaGammaSchemes:
//                 x = (capacitor charge q, inductor current iL), L = 1, C = 1/(4 pi^2), R = 10,
//                 x(0) = (1, 1), lambda the diode current, y = q/C + R lambda.
//
//   siconos_circuit_peer MODEL THETA GAMMA H T [relation]
//
// GAMMA = 1 is EulerMoreauOSI(theta) (r at t_{k+1}); otherwise EulerMoreauOSI(theta, gamma),
// which weights r as gamma r_{k+1} + (1 - gamma) r_k (nsdae's --gamma). With `relation`, gamma
// weights the state in the relation instead (setUseGammaForRelation: y = C (gamma x_{k+1} +
// (1 - gamma) x_k) + D lambda, r at t_{k+1}), the variant Circuit-ThetaGammaSchemes runs.
// Prints one CSV row per time: t,x0,x1,lambda0,... (the initial state first).
#include <SiconosKernel.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace {

struct circuit {
    std::shared_ptr<FirstOrderLinearDS> ds;
    std::shared_ptr<Interaction> inter;
};

// x' = A x + B lambda, y = C x + D lambda, 0 <= y _|_ lambda >= 0 (m rows), the DS given.
circuit complementarity(std::shared_ptr<FirstOrderLinearDS> ds, std::shared_ptr<SimpleMatrix> C,
                        std::shared_ptr<SimpleMatrix> D, std::shared_ptr<SimpleMatrix> B, unsigned m)
{
    auto rel = std::make_shared<FirstOrderLinearTIR>(C, B);
    rel->setDPtr(D);
    circuit c;
    c.ds = ds;
    c.inter = std::make_shared<Interaction>(std::make_shared<ComplementarityConditionNSL>(m), rel);
    return c;
}

// DiodeBridge.cpp's matrices, entry for entry.
circuit diode_bridge()
{
    const double L = 1e-2, C = 1e-6, R = 1e3;
    auto x0 = std::make_shared<SiconosVector>(2);
    (*x0)(0) = 10.0;
    (*x0)(1) = 0.0;
    auto A = std::make_shared<SimpleMatrix>(2, 2);
    (*A)(0, 1) = -1.0 / C;
    (*A)(1, 0) = 1.0 / L;
    auto Cm = std::make_shared<SimpleMatrix>(4, 2);
    (*Cm)(2, 0) = -1.0;
    (*Cm)(3, 0) = 1.0;
    auto D = std::make_shared<SimpleMatrix>(4, 4);
    (*D)(0, 0) = 1.0 / R;
    (*D)(0, 1) = 1.0 / R;
    (*D)(0, 2) = -1.0;
    (*D)(1, 0) = 1.0 / R;
    (*D)(1, 1) = 1.0 / R;
    (*D)(1, 3) = -1.0;
    (*D)(2, 0) = 1.0;
    (*D)(3, 1) = 1.0;
    auto B = std::make_shared<SimpleMatrix>(2, 4);
    (*B)(0, 2) = -1.0 / C;
    (*B)(0, 3) = 1.0 / C;
    return complementarity(std::make_shared<FirstOrderLinearDS>(x0, A), Cm, D, B, 4);
}

// CircuitRLCD-ThetaGammaSchemes.cpp's matrices, entry for entry.
circuit rlcd()
{
    const double L = 1.0, C = 1.0 / (4 * M_PI * M_PI), R = 10.0;
    auto x0 = std::make_shared<SiconosVector>(2);
    (*x0)(0) = 1.0;
    (*x0)(1) = 1.0;
    auto A = std::make_shared<SimpleMatrix>(2, 2);
    (*A)(0, 1) = -1.0;
    (*A)(1, 0) = 1.0 / (L * C);
    auto Cm = std::make_shared<SimpleMatrix>(1, 2);
    (*Cm)(0, 0) = 1.0 / C;
    auto D = std::make_shared<SimpleMatrix>(1, 1);
    (*D)(0, 0) = R;
    auto B = std::make_shared<SimpleMatrix>(2, 1);
    (*B)(0, 0) = 1.0;
    return complementarity(std::make_shared<FirstOrderLinearTIDS>(x0, A), Cm, D, B, 1);
}

void print_row(double t, const circuit &c)
{
    std::printf("%.17g,%.17g,%.17g", t, c.ds->x()->getValue(0), c.ds->x()->getValue(1));
    const SiconosVector &lambda = *c.inter->lambda(0);
    for (unsigned i = 0; i < lambda.size(); i++) std::printf(",%.17g", lambda.getValue(i));
    std::printf("\n");
}

int run(const char *model, double theta, double gamma, double h, double T, bool relation)
{
    circuit c = std::strcmp(model, "rlcd") == 0 ? rlcd() : diode_bridge();
    auto nsds = std::make_shared<NonSmoothDynamicalSystem>(0.0, T);
    nsds->insertDynamicalSystem(c.ds);
    nsds->link(c.inter, c.ds);
    auto osi = gamma == 1.0 ? std::make_shared<EulerMoreauOSI>(theta) : std::make_shared<EulerMoreauOSI>(theta, gamma);
    if (relation) osi->setUseGammaForRelation(true);
    auto sim = std::make_shared<TimeStepping>(nsds, std::make_shared<TimeDiscretisation>(0.0, h), osi,
                                              std::make_shared<LCP>());
    print_row(0.0, c);
    while (sim->hasNextEvent()) {
        sim->computeOneStep();
        print_row(sim->nextTime(), c);
        sim->nextStep();
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    const bool relation = argc == 7 && std::strcmp(argv[6], "relation") == 0;
    if ((argc != 6 && !relation) || (std::strcmp(argv[1], "diode_bridge") != 0 && std::strcmp(argv[1], "rlcd") != 0)) {
        std::fprintf(stderr, "usage: %s diode_bridge|rlcd THETA GAMMA H T [relation]\n", argv[0]);
        return 2;
    }
    try {
        return run(argv[1], std::atof(argv[2]), std::atof(argv[3]), std::atof(argv[4]), std::atof(argv[5]), relation);
    } catch (...) {
        std::fprintf(stderr, "%s: Siconos raised an exception\n", argv[0]);
        return 1;
    }
}
