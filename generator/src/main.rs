//! The `portal` command line: `init`, `build`, `check`, `serve` and `submissions` (docs/cli.md).
//!
//! Exit codes: 0 success, 1 content errors (all listed as `file:line: message`), 2 usage or I/O errors.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use portal::build::{self, BuildError, BuildOptions};
use portal::progress::Progress;
use portal::report::{self, Format};
use portal::serve::{self, ServerState};
use portal::submissions;
use portal_core::http::ratelimit::RateLimit;

/// Builds and servers allocate many small, short-lived values (template contexts, header strings):
/// mimalloc serves them faster than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Where `portal serve --drafts` builds its preview, inside the state folder.
const PREVIEW_FOLDER: &str = "preview";

#[derive(Parser)]
#[command(name = "portal", version, about = "Turns a folder of community content into a public content and data API.")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Start a new site: write a small content folder that builds and serves at once.
    Init {
        /// The folder to create the site in (new, or empty); the content goes into DIR/content.
        dir: PathBuf,
    },
    /// Render every static endpoint into the output folder.
    Build(BuildArgs),
    /// Check the content and everything a build would make, writing nothing.
    Check(RenderArgs),
    /// Build, then serve every endpoint, static and dynamic, on one port.
    Serve(ServeArgs),
    /// Pack a build into one archive with SHA-256 checksums, for offline copies.
    Snapshot {
        /// The build folder.
        #[arg(long, default_value = "dist")]
        dist: PathBuf,
        /// The archive to write.
        #[arg(long, default_value = "portal-snapshot.tar.gz")]
        out: PathBuf,
    },
    /// Check a snapshot archive: every file present and unaltered.
    Verify {
        /// The archive.
        file: PathBuf,
    },
    /// Write the rows of a table or export as record files, once (docs/content.md#importing-once).
    Import(ImportArgs),
    /// List the stored community voices and bookings (for follow-up by the editors), or publish one.
    Submissions(SubmissionsArgs),
}

#[derive(Args)]
struct ImportArgs {
    /// The source's format: csv, tsv, xlsx, ods, json, jsonl or geojson (an HSDS directory is read
    /// as a `sources:` entry).
    format: String,
    /// The file (a path from here) or an http(s) URL.
    source: String,
    /// The collection the records belong to.
    #[arg(long)]
    collection: String,
    /// A front-matter field and the column it is read from, `field=Column` (repeatable; dotted
    /// fields nest: `contact.phone=Phone`).
    #[arg(long = "map", value_name = "FIELD=COLUMN", value_parser = portal::import::parse_map)]
    map: Vec<(String, String)>,
    /// The column that gives each record's slug (its file name); else the title.
    #[arg(long)]
    id: Option<String>,
    /// The column whose text is the record's markdown body.
    #[arg(long)]
    body: Option<String>,
    /// The content folder to write into.
    #[arg(long, default_value = "content")]
    content: PathBuf,
    /// Replace record files that are already there.
    #[arg(long)]
    force: bool,
}

#[derive(Args)]
struct SubmissionsArgs {
    #[command(subcommand)]
    action: Option<SubmissionsAction>,
    /// The state folder `portal serve` used.
    #[arg(long, default_value = ".portal", global = true)]
    state: PathBuf,
    /// Read the Worker's submissions from this `wrangler d1 export` SQL file instead of a state folder.
    #[arg(long, value_name = "FILE", global = true, conflicts_with = "state")]
    from_d1_export: Option<PathBuf>,
    /// Only this kind.
    #[arg(long, value_parser = ["voice", "booking"])]
    kind: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "json")]
    format: FormatArg,
}

#[derive(Subcommand)]
enum SubmissionsAction {
    /// Write a stored submission into the content folder as a draft.
    Publish {
        #[command(subcommand)]
        what: PublishWhat,
    },
}

#[derive(Subcommand)]
enum PublishWhat {
    /// A community voice, as community-voices/<slug>.md with `draft: true`.
    Voice {
        /// The voice's id (as `portal submissions` and the editors' mail give it).
        id: String,
        /// The content folder.
        #[arg(long, default_value = "content")]
        content: PathBuf,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum FormatArg {
    Json,
    Csv,
}

/// What `check` and `build` both read and how they report.
#[derive(Args, Clone)]
struct RenderArgs {
    /// The content folder.
    #[arg(long, default_value = "content")]
    content: PathBuf,
    /// A folder of templates overriding the built-in theme.
    #[arg(long, default_value = "templates")]
    templates: PathBuf,
    /// The public address, overriding `base_url` in site.yaml.
    #[arg(long)]
    base_url: Option<String>,
    /// How to report: human, github (workflow annotations) or json.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Treat every warning as an error (for CI).
    #[arg(long)]
    strict: bool,
    /// Read sources at URLs from the build cache only, fetching nothing.
    #[arg(long)]
    offline: bool,
}

#[derive(Args, Clone)]
struct BuildArgs {
    #[command(flatten)]
    render: RenderArgs,
    /// The output folder.
    #[arg(long, default_value = "dist")]
    out: PathBuf,
    /// Also write files larger than this many bytes in parts, which a Worker deploy uploads
    /// instead (Cloudflare takes at most 25 MiB a file); lower it to try the parts on a small site.
    #[arg(long, default_value_t = portal_core::dist::parts::SPLIT_OVER)]
    split_over: usize,
    /// Bundle small files into packs when a Worker deploy would otherwise upload more than this
    /// many files (Cloudflare takes 20,000 a version on the Free plan); 0 always packs, which
    /// tries the packed layout on a small site.
    #[arg(long, default_value_t = portal_core::dist::packs::PACK_OVER)]
    pack_over: usize,
    /// Where to keep the build cache, which makes the next build into the same output folder an
    /// incremental one (default: `.portal/cache/` beside the content folder; never inside the
    /// output folder, which holds only what may be published).
    #[arg(long)]
    cache_dir: Option<PathBuf>,
}

#[derive(Args)]
struct ServeArgs {
    #[command(flatten)]
    build: BuildArgs,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 8787)]
    port: u16,
    /// Serve an existing build folder, or a snapshot archive, without building.
    #[arg(long, conflicts_with = "watch")]
    dist: Option<PathBuf>,
    /// Rebuild when content or templates change.
    #[arg(long)]
    watch: bool,
    /// Folder for state (submissions, mail outbox).
    #[arg(long, default_value = ".portal")]
    state: PathBuf,
    /// Preview drafts, marked as such: builds into <state>/preview instead of --out (never dist/).
    #[arg(long, conflicts_with = "dist")]
    drafts: bool,
    /// Requests per window and client address.
    #[arg(long, default_value_t = RateLimit::default().limit)]
    rate_limit: u32,
    /// Peers whose X-Forwarded-For, X-Real-IP and CF-Connecting-IP name the client: CIDRs or
    /// addresses separated by commas, or `none` (then the connection's peer is always the client).
    #[arg(long, default_value = portal_core::http::client_identity::LOOPBACK, value_parser = portal_core::http::client_identity::TrustedProxies::parse)]
    trusted_proxies: portal_core::http::client_identity::TrustedProxies,
    /// Rate-limit window length in seconds.
    #[arg(long, default_value_t = RateLimit::default().window_ms / 1000)]
    rate_window: u64,
}

impl RenderArgs {
    /// The build options, writing into `out`.
    fn options(&self, out: &std::path::Path) -> BuildOptions {
        BuildOptions {
            content: self.content.clone(),
            templates: Some(self.templates.clone()),
            out: out.to_path_buf(),
            base_url: self.base_url.clone(),
            drafts: false,
            layout: build::hosting::upload::Layout::default(),
            cache_dir: None,
            offline: self.offline,
        }
    }
}

impl BuildArgs {
    fn options(&self) -> BuildOptions {
        let layout = build::hosting::upload::Layout { split_over: self.split_over, pack_over: self.pack_over };
        BuildOptions { layout, cache_dir: self.cache_dir.clone(), ..self.render.options(&self.out) }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let progress = Progress::for_terminal();
    match cli.command {
        Command::Init { dir } => match portal::init::create(&dir) {
            Ok(written) => {
                println!(
                    "portal: wrote {written} files into {}; now `cd {}` and run `portal serve` (or `portal build`)",
                    dir.join("content").display(),
                    dir.display()
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("portal: {e:#}");
                ExitCode::from(2)
            }
        },
        Command::Build(args) => match build::build(&args.options(), &progress, args.render.strict) {
            Ok(report) => {
                report::built(args.render.format, &report, &args.out);
                ExitCode::SUCCESS
            }
            Err(e) => report_failure(args.render.format, e),
        },
        Command::Check(args) => match build::check(&args.options(Path::new("")), &progress, args.strict) {
            Ok(rendered) => {
                report::checked(args.format, &rendered);
                ExitCode::SUCCESS
            }
            Err(e) => report_failure(args.format, e),
        },
        Command::Serve(args) => run_serve(args, &progress),
        Command::Import(args) => run_import(args),
        Command::Snapshot { dist, out } => match portal::snapshot::pack(&dist, &out) {
            Ok(files) => {
                println!("portal: packed {files} files of {} into {}", dist.display(), out.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("portal: {e:#}");
                ExitCode::from(2)
            }
        },
        Command::Verify { file } => match portal::snapshot::open(&file) {
            Ok(snapshot) => {
                println!(
                    "portal: {} is intact: {} files of {} built {}",
                    file.display(),
                    snapshot.manifest.files.len(),
                    snapshot.manifest.site,
                    snapshot.manifest.generated_at
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("portal: {e:#}");
                ExitCode::from(1)
            }
        },
        Command::Submissions(args) => run_submissions(args),
    }
}

/// `portal submissions`: list, or publish one.
fn run_submissions(args: SubmissionsArgs) -> ExitCode {
    let source = match args.from_d1_export {
        Some(file) => submissions::Source::D1Export(file),
        None => submissions::Source::State(args.state),
    };
    let done = match args.action {
        Some(SubmissionsAction::Publish { what: PublishWhat::Voice { id, content } }) => {
            source.open().and_then(|store| submissions::publish::voice(&store, &id, &content)).map(|file| {
                println!("wrote {} (a draft: review it, then remove `draft: true` to publish it)", file.display());
            })
        }
        None => {
            let format = match args.format {
                FormatArg::Json => submissions::Format::Json,
                FormatArg::Csv => submissions::Format::Csv,
            };
            submissions::export(&source, args.kind.as_deref(), format, &mut std::io::stdout().lock())
        }
    };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("portal: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn report_failure(format: Format, error: BuildError) -> ExitCode {
    match error {
        BuildError::Content(errors) => {
            report::content_errors(format, &errors);
            ExitCode::from(1)
        }
        BuildError::Io(e) => {
            report::failure(format, &e);
            ExitCode::from(2)
        }
    }
}

fn run_import(args: ImportArgs) -> ExitCode {
    use portal::import::{self, Refused};
    let source = portal_core::content::DataSource {
        collection: args.collection,
        from: args.source,
        format: Some(args.format),
        map: args.map.into_iter().collect(),
        id: args.id,
        body: args.body,
    };
    let job = import::Import { source, content: args.content, force: args.force };
    match import::run(&job) {
        Ok(written) => {
            let folder = job.content.join(&job.source.collection);
            println!("portal: wrote {} records into {}", written.len(), folder.display());
            ExitCode::SUCCESS
        }
        Err(Refused::Content(errors)) => {
            report::content_errors(Format::Human, &errors);
            ExitCode::from(1)
        }
        Err(Refused::Existing(files)) => {
            for file in &files {
                eprintln!("{}: already there", file.display());
            }
            eprintln!(
                "portal: {} record files are already there; nothing was written (--force replaces them)",
                files.len()
            );
            ExitCode::from(1)
        }
        Err(Refused::Io(e)) => {
            eprintln!("portal: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run_serve(args: ServeArgs, progress: &Progress) -> ExitCode {
    let mut options = args.build.options();
    if args.drafts {
        options.drafts = true;
        options.out = args.state.join(PREVIEW_FOLDER);
    }
    let dist = match &args.dist {
        Some(dist) => dist.clone(),
        None => match build::build(&options, progress, args.build.render.strict) {
            Ok(report) => {
                report::built(args.build.render.format, &report, &options.out);
                if args.drafts {
                    println!(
                        "portal: drafts preview (drafts marked as such, never published) built into {}",
                        options.out.display()
                    );
                }
                options.out.clone()
            }
            Err(e) => return report_failure(args.build.render.format, e),
        },
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("portal: cannot start the runtime: {e}");
            return ExitCode::from(2);
        }
    };
    let limits = RateLimit { limit: args.rate_limit, window_ms: args.rate_window.max(1) * 1000 };
    let result = runtime.block_on(async {
        let state = ServerState::open(dist, &args.state, limits, args.trusted_proxies.clone()).await?;
        let listener = serve::listener::bind(&args.host, args.port)
            .await
            .map_err(|e| anyhow::anyhow!("cannot listen on {}:{}: {e}", args.host, args.port))?;
        let address = listener.local_addr()?;
        let _watcher = if args.watch { Some(serve::watch::start(options.clone(), state.clone())?) } else { None };
        println!("portal: listening on http://{address}");
        if let Some(note) = state.address_note(&format!("http://{address}")) {
            eprintln!("{note}");
        }
        serve::serve(listener, state).await
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("portal: {e:#}");
            ExitCode::from(2)
        }
    }
}
