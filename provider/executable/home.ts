/** Where the project lives, from package.json's `repository` alone: the schema, release and docs use it. */
/** What package.json says about the package (the fields this file reads). */
export interface PackageJson {
  name: string;
  version: string;
  description?: string;
  license?: string;
  homepage?: string;
  repository?: string | { type?: string; url: string; directory?: string };
}

export interface Home {
  /** `https://github.com/<owner>/<repo>` */
  url: string;
  owner: string;
  repo: string;
  /** The Go module of the generated Go SDK: `github.com/<owner>/<repo>/languages/go`. */
  goModule: string;
  /** Its package's import path (`<goModule>/wpengine`), the schema's `language.go.importBasePath`. */
  goImport: string;
  /** Where the engine downloads the plugin from: the repository's GitHub releases. */
  pluginDownloadURL: string;
  /** `npm install <this>` installs the package from the repository (its `prepare` builds dist/). */
  npmGit: string;
  /** `pip install "<this>"` installs the Python SDK from the repository. */
  pipGit: string;
  /** The page of one release's files. */
  releaseUrl(version: string): string;
}

/** The repository's home, from package.json's `repository`; throws when it is not a GitHub repository. */
export function homeOf(pkg: PackageJson): Home {
  const raw = typeof pkg.repository === "string" ? pkg.repository : pkg.repository?.url;
  const m = /^(?:git\+)?https:\/\/github\.com\/([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(raw ?? "");
  if (!m) throw new Error(`package.json: repository is not a https://github.com/<owner>/<repo> URL (${raw})`);
  const [, owner, repo] = m as unknown as [string, string, string];
  const url = `https://github.com/${owner}/${repo}`;
  const goModule = `github.com/${owner}/${repo}/languages/go`;
  return {
    url,
    owner,
    repo,
    goModule,
    goImport: `${goModule}/wpengine`,
    pluginDownloadURL: `github://api.github.com/${owner}/${repo}`,
    npmGit: `git+${url}.git`,
    pipGit: `pulumi_wpengine @ git+${url}.git#subdirectory=languages/python`,
    releaseUrl: (version) => `${url}/releases/tag/v${version}`,
  };
}
