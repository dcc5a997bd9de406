// A C++ program built against an installed nsdae: every public header compiles as C++ and links
// (extern "C"); runs decay.nsm into a row matrix and checks the closed form of the model's scheme.
// usage: consumer_cxx MODEL; exit 0 when the checks hold.
#include <nsdae/csv_sink.h>
#include <nsdae/impulse.h>
#include <nsdae/lcp.h>
#include <nsdae/mode.h>
#include <nsdae/order_fit.h>
#include <nsdae/run.h>
#include <nsdae/structural.h>
#include <nsdae/system.h>
#include <nsdae/tape.h>
#include <nsdae/tolerances.h>
#include <nsdae/translate.h>
#include <nsdae/translate_lagrangian.h>
#include <nsdae/version.h>

#include <cmath>
#include <cstdio>
#include <vector>

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    nsdae_error err{};
    nsdae_run *run = nullptr;
    if (nsdae_run_prepare_file(argv[1], nullptr, &run, &err) != NSDAE_OK) {
        std::printf("error: %s\n", err.message);
        return 1;
    }
    const nsdae_run_plan *plan = nsdae_run_plan_of(run);
    const long width = 1 + plan->columns.n;
    std::vector<double> rows(static_cast<size_t>((plan->grid.n + 1) * width));
    long n = 0;
    nsdae_status st = nsdae_run_execute_rows(run, rows.data(), &n, nullptr, &err);
    std::printf("C++: form %s, scheme %s, theta %g, %ld rows, columns t", nsdae_form_name(plan->form),
                nsdae_scheme_name(plan->scheme), plan->theta, n);
    for (int j = 0; j < plan->columns.n; j++) std::printf(",%s", plan->columns.names[j]);
    const double x = rows[static_cast<size_t>((n - 1) * width + 1)], want = std::pow(0.95 / 1.05, 10);
    std::printf("\nC++: x(1) = %.15f, closed form %.15f\n", x, want);
    nsdae_run_destroy(run);
    return st == NSDAE_OK && n == 11 && std::fabs(x - want) <= 1e-13 ? 0 : 1;
}
