// Siconos kernel peer of bench_scale for examples/diode_ladder.nsm: the RC ladder of N cells with a
// clamping diode per node, written in Siconos' first-order linear form and integrated by
// EulerMoreauOSI(theta) with an LCP per step (Siconos' default solver), as nsdae --scheme theta.
//
// The ladder's series currents are eliminated by hand (nsdae keeps them as algebraic unknowns):
//   C v_k' = (v_{k-1} - v_k)/R - (v_k - v_{k+1})/R - v_k/Rl - id_k,  v_0 = u(t), no v_{N+1} term,
// so x = v, A tridiagonal, b(t) = (u(t)/(R C), 0, ...), r = B lambda with B = -I/C, and the
// diodes 0 <= y = E - v _|_ id >= 0 (C_rel = -I, e = E). u(t) = U0 + Ua sin(w t).
//
//   siconos_ladder_peer N THETA H T REPEATS [GAMMA [GAMMA_RELATION]]
//
// GAMMA (> 0): EulerMoreauOSI(THETA, GAMMA), the multipliers' r weighted gamma r_k+1 + (1 - gamma) r_k;
// GAMMA_RELATION 1: setUseGammaForRelation(true) instead (gamma on x where the relation reads it,
// r at t_k+1). Without them: EulerMoreauOSI(THETA), r at t_k+1 and the relation at x_k+1.
//
// Prints one line: "ladder steps seconds v_final...", seconds = loop time summed over REPEATS.
#include <SiconosKernel.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

namespace {

const double kR = 100.0, kRl = 1000.0, kC = 1e-5, kE = 1.0, kU0 = 0.0, kUa = 5.0,
             kW = 2 * 3.141592653589793 * 50;

// b(t): only the first node sees the source.
void ladder_b(double t, unsigned int size, double *b, unsigned int, double *)
{
    for (unsigned int k = 0; k < size; k++) b[k] = 0.0;
    b[0] = (kU0 + kUa * std::sin(kW * t)) / (kR * kC);
}

struct run_result {
    long steps = 0;
    double seconds = 0.0;
    std::vector<double> v;
};

run_result run(unsigned n, double theta, double h, double T, double gamma, bool gamma_relation)
{
    auto x0 = std::make_shared<SiconosVector>(n);
    x0->zero();
    auto A = std::make_shared<SimpleMatrix>(n, n);
    A->zero();
    for (unsigned k = 0; k < n; k++) {
        (*A)(k, k) = -((k + 1 < n ? 2.0 : 1.0) / kR + 1.0 / kRl) / kC;
        if (k > 0) (*A)(k, k - 1) = 1.0 / (kR * kC);
        if (k + 1 < n) (*A)(k, k + 1) = 1.0 / (kR * kC);
    }
    auto ds = std::make_shared<FirstOrderLinearDS>(x0, A);
    ds->setComputebFunction(ladder_b);
    auto Cr = std::make_shared<SimpleMatrix>(n, n);
    auto B = std::make_shared<SimpleMatrix>(n, n);
    Cr->zero();
    B->zero();
    for (unsigned k = 0; k < n; k++) {
        (*Cr)(k, k) = -1.0;
        (*B)(k, k) = -1.0 / kC;
    }
    auto rel = std::make_shared<FirstOrderLinearTIR>(Cr, B);
    auto e = std::make_shared<SiconosVector>(n);
    for (unsigned k = 0; k < n; k++) (*e)(k) = kE;
    rel->setePtr(e);
    auto inter = std::make_shared<Interaction>(std::make_shared<ComplementarityConditionNSL>(n), rel);
    auto nsds = std::make_shared<NonSmoothDynamicalSystem>(0.0, T);
    nsds->insertDynamicalSystem(ds);
    nsds->link(inter, ds);
    auto osi = gamma > 0 ? std::make_shared<EulerMoreauOSI>(theta, gamma) : std::make_shared<EulerMoreauOSI>(theta);
    if (gamma > 0 && gamma_relation) osi->setUseGammaForRelation(true);
    auto sim = std::make_shared<TimeStepping>(nsds, std::make_shared<TimeDiscretisation>(0.0, h), osi,
                                              std::make_shared<LCP>());
    run_result res;
    auto start = std::chrono::steady_clock::now();
    while (sim->hasNextEvent()) {
        sim->computeOneStep();
        sim->nextStep();
        res.steps++;
    }
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (unsigned k = 0; k < n; k++) res.v.push_back(ds->x()->getValue(k));
    return res;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 6 || argc > 8 || std::atoi(argv[1]) < 1) {
        std::fprintf(stderr, "usage: %s N THETA H T REPEATS [GAMMA [GAMMA_RELATION]]\n", argv[0]);
        return 2;
    }
    const unsigned n = (unsigned)std::atoi(argv[1]);
    const double theta = std::atof(argv[2]), h = std::atof(argv[3]), T = std::atof(argv[4]);
    const int repeats = std::atoi(argv[5]);
    const double gamma = argc > 6 ? std::atof(argv[6]) : 0.0;
    const bool gamma_relation = argc > 7 && std::atoi(argv[7]) != 0;
    run_result total;
    try {
        for (int k = 0; k < repeats; k++) {
            run_result r = run(n, theta, h, T, gamma, gamma_relation);
            total.steps += r.steps;
            total.seconds += r.seconds;
            total.v = r.v;
        }
    } catch (...) {
        std::fprintf(stderr, "%s: Siconos raised an exception\n", argv[0]);
        return 1;
    }
    std::printf("ladder %ld %.9g", total.steps, total.seconds);
    for (double v : total.v) std::printf(" %.17g", v);
    std::printf("\n");
    return 0;
}
