# A sample algorithm for an Amazon Braket hybrid job, scaffolded by byoc.
# Entry point: algorithm/algo.jl. byoc's entry point exports every hyperparameter as
# SM_HP_<NAME> (the JSON file is at ENV["AMZN_BRAKET_HP_FILE"]). Metrics are
# "Metrics - ..." lines on stdout; results go to the job's results directory.

function log_metric(name, value, iteration)
    println("Metrics - timestamp=$(time()); $(name)=$(value); iteration_number=$(iteration);")
    flush(stdout)
end

function main()
    iterations = parse(Int, get(ENV, "SM_HP_ITERATIONS", "5"))
    if lowercase(get(ENV, "SM_HP_FAIL", "false")) == "true"
        error("failing on purpose (hyperparameter fail=true)")
    end
    loss = 1.0
    for i in 0:iterations-1
        loss /= 2
        log_metric("loss", loss, i)
    end
    results_dir = get(ENV, "AMZN_BRAKET_JOB_RESULTS_DIR", "/opt/braket/model")
    mkpath(results_dir)
    open(joinpath(results_dir, "results.json"), "w") do f
        write(f, """{"braketSchemaHeader": {"name": "braket.jobs_data.persisted_job_data", "version": "1"}, """ *
                 """"dataDictionary": {"loss": $(loss), "iterations": $(iterations)}, "dataFormat": "plaintext"}""")
    end
end

main()
