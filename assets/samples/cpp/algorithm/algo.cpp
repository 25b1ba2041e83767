// A sample algorithm for an Amazon Braket hybrid job, scaffolded by byoc.
// Entry point: algorithm/CMakeLists.txt (byoc's entry point configures, builds and runs
// the first executable target). Hyperparameters arrive as SM_HP_<NAME>; metrics are
// "Metrics - ..." lines on stdout; results go to the job's results directory. A non-zero
// exit fails the job.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

static std::string env_or(const char *name, const std::string &fallback)
{
    const char *v = std::getenv(name);
    return v && *v ? v : fallback;
}

static void log_metric(const std::string &name, double value, int iteration)
{
    double now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    std::cout << std::fixed << "Metrics - timestamp=" << now << "; " << name << "=" << value
              << "; iteration_number=" << iteration << ";" << std::endl;
}

int main()
{
    int iterations = std::stoi(env_or("SM_HP_ITERATIONS", "5"));
    if (env_or("SM_HP_FAIL", "false") == "true") {
        std::cerr << "failing on purpose (hyperparameter fail=true)" << std::endl;
        return 1;
    }
    double loss = 1.0;
    for (int i = 0; i < iterations; i++) {
        loss /= 2;
        log_metric("loss", loss, i);
    }
    std::filesystem::path dir = env_or("AMZN_BRAKET_JOB_RESULTS_DIR", "/opt/braket/model");
    std::filesystem::create_directories(dir);
    std::ofstream out(dir / "results.json");
    out << "{\"braketSchemaHeader\": {\"name\": \"braket.jobs_data.persisted_job_data\", \"version\": \"1\"}, "
        << "\"dataDictionary\": {\"loss\": " << loss << ", \"iterations\": " << iterations
        << "}, \"dataFormat\": \"plaintext\"}" << std::endl;
    return out ? 0 : 1;
}
