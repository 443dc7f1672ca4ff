/** What package.json says about the package (the fields the schema, the release and the docs read). */
export interface PackageJson {
  version: string;
  license?: string;
  homepage?: string;
  repository?: string | { type?: string; url: string; directory?: string };
}

/** The repository's home, from package.json's `repository`; throws when it is not a GitHub repository. */
export function homeOf(pkg: PackageJson) {
  const raw = typeof pkg.repository === "string" ? pkg.repository : pkg.repository?.url;
  const m = /^(?:git\+)?https:\/\/github\.com\/([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(raw ?? "");
  if (!m) throw new Error(`package.json: repository is not a https://github.com/<owner>/<repo> URL (${raw})`);
  const [, owner, repo] = m as unknown as [string, string, string];
  const url = `https://github.com/${owner}/${repo}`;
  /** The Go module of the generated Go SDK. */
  const goModule = `github.com/${owner}/${repo}/languages/go`;
  return {
    url,
    owner,
    repo,
    goModule,
    /** The Go package's import path, the schema's `language.go.importBasePath`. */
    goImport: `${goModule}/wpengine`,
    /** Where the engine downloads the plugin from: the repository's GitHub releases. */
    pluginDownloadURL: `github://api.github.com/${owner}/${repo}`,
    /** `npm install <this>` installs the package from the repository (its `prepare` builds dist/). */
    npmGit: `git+${url}.git`,
    /** `pip install "<this>"` installs the Python SDK from the repository. */
    pipGit: `pulumi_wpengine @ git+${url}.git#subdirectory=languages/python`,
    releaseUrl: (version: string) => `${url}/releases/tag/v${version}`,
  };
}
