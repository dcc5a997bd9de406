// Siconos kernel peer of bench_contact.c: the same contact models as nsdae's built-ins, written
// with the Siconos C++ kernel API (MoreauJeanOSI(theta), NewtonImpactNSL, LCP with its default
// Lemke solver, TimeStepping), timed over the time loop only.
//
//   siconos_contact_peer MODEL H T REPEATS     MODEL: ball | beads | beads:N (a column of N beads,
//                                              examples/bead_column.nsm; beads is beads:10)
//
// Prints one line: "MODEL steps seconds q_final...", seconds = loop time summed over REPEATS.
#include <SiconosKernel.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

namespace {

const double kGravity = 9.81;

std::shared_ptr<LagrangianLinearTIDS> point_mass(double q0, double mass, double force)
{
    auto q = std::make_shared<SiconosVector>(1);
    auto v = std::make_shared<SiconosVector>(1);
    (*q)(0) = q0;
    (*v)(0) = 0.0;
    auto M = std::make_shared<SimpleMatrix>(1, 1);
    (*M)(0, 0) = mass;
    auto ds = std::make_shared<LagrangianLinearTIDS>(q, v, M);
    auto F = std::make_shared<SiconosVector>(1);
    (*F)(0) = force;
    ds->setFExtPtr(F);
    return ds;
}

// gap = C q + offset through a linear time-invariant relation
std::shared_ptr<Interaction> contact(double e, const std::vector<double> &C, double offset)
{
    auto H = std::make_shared<SimpleMatrix>(1, (unsigned)C.size());
    for (size_t j = 0; j < C.size(); j++) (*H)(0, (unsigned)j) = C[j];
    auto off = std::make_shared<SiconosVector>(1);
    (*off)(0) = offset;
    auto rel = std::make_shared<LagrangianLinearTIR>(H, off);
    return std::make_shared<Interaction>(std::make_shared<NewtonImpactNSL>(e), rel);
}

struct run_result {
    long steps = 0;
    double seconds = 0.0;
    std::vector<double> q;
};

run_result run(const char *model, int nbeads, double h, double T)
{
    auto nsds = std::make_shared<NonSmoothDynamicalSystem>(0.0, T);
    std::vector<std::shared_ptr<LagrangianLinearTIDS>> bodies;
    if (std::strcmp(model, "ball") == 0) {
        // q0 = 1, m = 1, g = 9.81, e = 0.9, gap q
        bodies.push_back(point_mass(1.0, 1.0, -kGravity));
        nsds->insertDynamicalSystem(bodies[0]);
        nsds->link(contact(0.9, {1.0}, 0.0), bodies[0]);
    } else {
        // nbeads beads, r = 0.1, m = 1, initial gaps 0.25, e = 0.9: one DS per bead, as Siconos'
        // own bead-column example; gaps q_1 - r and q_{i+1} - q_i - 2r
        const int n = nbeads;
        const double r = 0.1, gap0 = 0.25;
        double z = r + gap0;
        for (int i = 0; i < n; i++, z += 2 * r + gap0) {
            bodies.push_back(point_mass(z, 1.0, -kGravity));
            nsds->insertDynamicalSystem(bodies[i]);
        }
        nsds->link(contact(0.9, {1.0}, -r), bodies[0]);
        for (int i = 1; i < n; i++) nsds->link(contact(0.9, {-1.0, 1.0}, -2 * r), bodies[i - 1], bodies[i]);
    }
    auto osi = std::make_shared<MoreauJeanOSI>(0.5);
    auto td = std::make_shared<TimeDiscretisation>(0.0, h);
    auto lcp = std::make_shared<LCP>();
    auto sim = std::make_shared<TimeStepping>(nsds, td, osi, lcp);

    run_result res;
    auto start = std::chrono::steady_clock::now();
    while (sim->hasNextEvent()) {
        sim->computeOneStep();
        sim->nextStep();
        res.steps++;
    }
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (auto &b : bodies) res.q.push_back(b->q()->getValue(0));
    return res;
}

} // namespace

int main(int argc, char **argv)
{
    int nbeads = 10;
    if (argc == 5 && std::strncmp(argv[1], "beads:", 6) == 0) nbeads = std::atoi(argv[1] + 6);
    if (argc != 5 || nbeads < 1 ||
        (std::strcmp(argv[1], "ball") != 0 && std::strncmp(argv[1], "beads", 5) != 0)) {
        std::fprintf(stderr, "usage: %s ball|beads|beads:N H T REPEATS\n", argv[0]);
        return 2;
    }
    const double h = std::atof(argv[2]), T = std::atof(argv[3]);
    const int repeats = std::atoi(argv[4]);
    run_result total;
    try {
        for (int k = 0; k < repeats; k++) {
            run_result r = run(argv[1], nbeads, h, T);
            total.steps += r.steps;
            total.seconds += r.seconds;
            total.q = r.q;
        }
    } catch (...) {
        std::fprintf(stderr, "%s: Siconos raised an exception\n", argv[0]);
        return 1;
    }
    std::printf("%s %ld %.9g", argv[1], total.steps, total.seconds);
    for (double q : total.q) std::printf(" %.17g", q);
    std::printf("\n");
    return 0;
}
