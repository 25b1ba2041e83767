//! A sample algorithm for an Amazon Braket hybrid job, scaffolded by byoc.
//! Entry point: algorithm/Cargo.toml (byoc's entry point runs `cargo run --release`).
//! Hyperparameters arrive as SM_HP_<NAME>; metrics are "Metrics - ..." lines on
//! stdout; results go to the job's results directory. A non-zero exit fails the job.

use std::env;
use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

fn log_metric(name: &str, value: f64, iteration: u32) {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs_f64()).unwrap_or(0.0);
    println!("Metrics - timestamp={now}; {name}={value}; iteration_number={iteration};");
    std::io::stdout().flush().ok();
}

fn main() -> ExitCode {
    let iterations: u32 = env::var("SM_HP_ITERATIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(5);
    if env::var("SM_HP_FAIL").map(|v| v.eq_ignore_ascii_case("true")).unwrap_or(false) {
        eprintln!("failing on purpose (hyperparameter fail=true)");
        return ExitCode::FAILURE;
    }
    let mut loss = 1.0_f64;
    for i in 0..iterations {
        loss /= 2.0;
        log_metric("loss", loss, i);
    }
    let dir = env::var("AMZN_BRAKET_JOB_RESULTS_DIR").unwrap_or_else(|_| "/opt/braket/model".into());
    let result = format!(
        "{{\"braketSchemaHeader\": {{\"name\": \"braket.jobs_data.persisted_job_data\", \"version\": \"1\"}}, \
         \"dataDictionary\": {{\"loss\": {loss}, \"iterations\": {iterations}}}, \"dataFormat\": \"plaintext\"}}"
    );
    if let Err(e) = fs::create_dir_all(&dir).and_then(|_| fs::write(Path::new(&dir).join("results.json"), result)) {
        eprintln!("cannot save the result in {dir}: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
