"""A sample algorithm for an Amazon Braket hybrid job, scaffolded by byoc.

Entry point: algorithm.algo:main. Hyperparameters that match the function's
parameters are passed in, converted by their annotations. It logs a metric per
iteration ("Metrics - ..." lines, which Braket parses) and saves its result in
the job's results directory; with the Braket SDK installed you would call
braket.jobs.log_metric and braket.jobs.save_job_result instead.
"""

import json
import os
import time


def log_metric(name, value, iteration):
    print(f"Metrics - timestamp={time.time()}; {name}={value}; iteration_number={iteration};", flush=True)


def save_result(data):
    results_dir = os.environ.get("AMZN_BRAKET_JOB_RESULTS_DIR", "/opt/braket/model")
    os.makedirs(results_dir, exist_ok=True)
    document = {
        "braketSchemaHeader": {"name": "braket.jobs_data.persisted_job_data", "version": "1"},
        "dataDictionary": data,
        "dataFormat": "plaintext",
    }
    with open(os.path.join(results_dir, "results.json"), "w") as f:
        json.dump(document, f)


def main(iterations: int = 5, fail: bool = False):
    device = os.environ.get("AMZN_BRAKET_DEVICE_ARN", "local:none/none")
    print(f"running {iterations} iterations for device {device}", flush=True)
    if fail:
        raise RuntimeError("failing on purpose (hyperparameter fail=true)")
    loss = 1.0
    for i in range(iterations):
        loss /= 2
        log_metric("loss", loss, i)
    save_result({"loss": loss, "iterations": iterations, "device": device})


if __name__ == "__main__":
    main()
