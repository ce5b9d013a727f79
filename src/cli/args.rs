//! The command line as clap sees it: commands, flags and their documentation.
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Parser, Debug)]
#[command(
    name = "arbiter",
    version,
    about = "A rules interpreter for turn-based strategy games written as data"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Validate rulesets, scenarios, match scripts, conformance cases and replays.
    Validate(ValidateArgs),
    /// Run a match script and write its replay.
    Run(RunArgs),
    /// Play one match between agents and write its replay.
    Match(MatchArgs),
    /// Play many matches between agents and report statistics.
    Simulate(SimulateArgs),
    /// Work with replays.
    Replay {
        #[command(subcommand)]
        command: ReplayCommand,
    },
    /// Run conformance cases.
    Conformance(ConformanceArgs),
    /// Round robin between agents, both seatings, with ratings on the Elo scale.
    Tournament(TournamentArgs),
    /// Watch two agents play, the board drawn after each submission.
    Watch(WatchArgs),
    /// Play against an agent in the terminal.
    Play(PlayArgs),
    /// Serve matches over HTTP: remote seats play through the API, agent seats on the server.
    Serve(ServeArgs),
    /// Write a replay as one self-contained HTML page: the board at every step, events, each player's view.
    View(ViewArgs),
    /// Write SVG charts of `simulate --format json` outputs and experiment folders as one HTML page.
    Report(ReportArgs),
    /// Parameter sweeps from a TOML file: run (all or one shard), merge shards.
    Experiment {
        #[command(subcommand)]
        command: ExperimentCommand,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Args, Debug)]
pub struct ValidateArgs {
    /// Files to validate; the kind is detected from the content. Default: everything under rulesets/ and
    /// scenarios/.
    pub paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Override a value of the ruleset by its dotted path, e.g. settings.turnCapPlies=30 (V is YAML), as
    /// `match --set` would: check a variant before playing it.
    #[arg(long = "set", value_name = "K=V")]
    pub set: Vec<String>,
    /// Also print, for each valid file that loads a game, how it will be played: phases, actions and
    /// their costs, the defaults applied (text output only).
    #[arg(long)]
    pub explain: bool,
}

#[derive(Args, Debug)]
pub struct RunArgs {
    /// The match script (YAML or JSON).
    pub script: PathBuf,
    /// Write the replay here instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Add every legal action of whoever is due in the final position.
    #[arg(long)]
    pub legal: bool,
}

/// The game to play: a ruleset, a scenario and overrides.
#[derive(Args, Debug)]
pub struct GameArgs {
    /// A ruleset folder, a ruleset.yaml path, or a name under rulesets/.
    #[arg(long)]
    pub ruleset: String,
    /// A scenario path or a name under scenarios/<ruleset id>/ (default: the ruleset's own).
    #[arg(long)]
    pub scenario: Option<String>,
    /// Override a value of the ruleset by its dotted path, e.g. settings.turnCapPlies=30 (V is YAML).
    #[arg(long = "set", value_name = "K=V")]
    pub set: Vec<String>,
}

/// Agents outside the process (`exec:COMMAND`, `http://URL`): deadline and fallback.
#[derive(Args, Debug, Clone, Default)]
pub struct RemoteArgs {
    /// Milliseconds an agent outside the process (exec:, http://) has for each decision (default 2000).
    #[arg(long, value_name = "MS")]
    pub agent_timeout: Option<u64>,
    /// Who decides when such an agent does not (no reply in time, a malformed reply, a crash): `pass`
    /// (an empty submission, the default) or an agent of the engine's own, e.g. `random`.
    #[arg(long, value_name = "AGENT")]
    pub fallback: Option<String>,
}

#[derive(Args, Debug)]
pub struct MatchArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub remote: RemoteArgs,
    /// Agent of the first player: NAME[:key=value,...] (random, random_kind, greedy, mcts, minimax, an evaluation the ruleset declares, exec:COMMAND or http://URL).
    #[arg(long)]
    pub p1: String,
    /// Agent of the second player (as --p1).
    #[arg(long)]
    pub p2: String,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write the replay here instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Add every legal action of whoever is due in the final position.
    #[arg(long)]
    pub legal: bool,
}

#[derive(Args, Debug)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub remote: RemoteArgs,
    /// Agent of the first player: NAME[:key=value,...] (random, random_kind, greedy, mcts, minimax, an evaluation the ruleset declares, exec:COMMAND or http://URL).
    #[arg(long)]
    pub p1: String,
    /// Agent of the second player (as --p1).
    #[arg(long)]
    pub p2: String,
    /// Number of games.
    #[arg(long)]
    pub games: u64,
    /// Base seed; game i is seeded from (seed, i) alone.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Worker threads (default: one per core). Results do not depend on it.
    #[arg(long)]
    pub jobs: Option<usize>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Check every step: listed actions apply, enumeration agrees with counting, invariants hold.
    #[arg(long)]
    pub check: bool,
    /// Also write the results as an HTML page of charts (as `arbiter report` draws them).
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct TournamentArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub remote: RemoteArgs,
    /// The agents, each NAME[:key=value,...] (at least two, all different).
    #[arg(long, num_args = 1.., required = true, value_name = "AGENT")]
    pub agents: Vec<String>,
    /// Games per pair in each seating (so 2N games per pair).
    #[arg(long, default_value_t = 10)]
    pub games_per_pair: u64,
    /// Base seed; game g of pair k is seeded from (seed, k, g) alone.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Worker threads (default: one per core). Results do not depend on it.
    #[arg(long)]
    pub jobs: Option<usize>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Args, Debug)]
pub struct WatchArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub remote: RemoteArgs,
    /// Agent of the first player: NAME[:key=value,...].
    #[arg(long)]
    pub p1: String,
    /// Agent of the second player (as --p1).
    #[arg(long)]
    pub p2: String,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Pause after each frame, in milliseconds (default: 500 on a terminal, 0 on a pipe).
    #[arg(long, value_name = "MS")]
    pub delay: Option<u64>,
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub remote: RemoteArgs,
    /// The agent you play against: NAME[:key=value,...].
    #[arg(long)]
    pub opponent: String,
    /// The player you are (default: the first).
    #[arg(long = "as", value_name = "PLAYER")]
    pub seat: Option<String>,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write the replay here when the game ends (or you quit).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
pub enum ReplayCommand {
    /// Re-run a replay's inputs and check that events, result and final state are identical.
    Verify {
        /// The replay file.
        file: PathBuf,
    },
}

#[derive(Args, Debug)]
pub struct ConformanceArgs {
    /// Folders of case files. Default: every rulesets/*/conformance/.
    pub dirs: Vec<PathBuf>,
}

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on (port 0: any free port, printed at start).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// Allow an address other than loopback: anyone who reaches it can create and watch matches (read
    /// the security notes in docs/agents.md first).
    #[arg(long)]
    pub public: bool,
    /// Matches held at once, ongoing or finished (more is refused with 429).
    #[arg(long, default_value_t = 1000)]
    pub max_matches: usize,
    /// Seconds after which a match nobody has touched is dropped, with its replay.
    #[arg(long, value_name = "SECS", default_value_t = 600)]
    pub idle_timeout: u64,
    /// Worker threads playing the matches (default: one per core, at least two).
    #[arg(long)]
    pub workers: Option<usize>,
}

#[derive(Args, Debug)]
pub struct ViewArgs {
    /// The replay file (output of `run`, `match` or `play --out`).
    pub replay: PathBuf,
    /// Write the page here (`-` for stdout). Default: beside the replay, its name ending in .html.
    #[arg(short = 'o', long = "out", value_name = "FILE.html")]
    pub out: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Outputs of `simulate --format json` and experiment folders (holding results.jsonl) or
    /// results.jsonl files, in the order they are shown.
    #[arg(required = true, value_name = "DIR|FILE")]
    pub inputs: Vec<PathBuf>,
    /// Write the page here (`-` for stdout). Default: report.html in the first folder given, else beside
    /// the first file, its name ending in .html.
    #[arg(short = 'o', long = "out", value_name = "FILE.html")]
    pub out: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
pub enum ExperimentCommand {
    /// Run every cell of an experiment file (or one shard of the work) into a results directory; a rerun
    /// into the same directory skips the games already played.
    Run(ExperimentRunArgs),
    /// Combine the results directories of shards into the results of the whole experiment.
    Merge(ExperimentMergeArgs),
}

#[derive(Args, Debug)]
pub struct ExperimentRunArgs {
    /// The experiment file (TOML, docs/experiments.md).
    pub file: PathBuf,
    /// The results directory (default: FILE's name without .toml, in the current directory, with
    /// `.shard-I-of-N` added for a shard).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Worker threads (default: one per core). Results do not depend on it.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Run only the I-th of N exact parts of the work (1 <= I <= N); merge the parts with `experiment merge`.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Only validate every cell and say what would run (cells, games, digest); nothing is played or written.
    #[arg(long)]
    pub check: bool,
}

#[derive(Args, Debug)]
pub struct ExperimentMergeArgs {
    /// The shards' results directories.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Where the merged results go (a new or empty directory).
    #[arg(long, value_name = "DIR", required = true)]
    pub out: PathBuf,
}
