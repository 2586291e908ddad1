// The types of top-folder-cycles.mjs (a dependency-cruiser reporter plugin, plain JavaScript as the plugin loader
// takes it): the part of dependency-cruiser's result it reads, and what it answers.

export interface CruisedModule {
  source: string;
  dependencies: { resolved: string }[];
}

export interface CruiseResult {
  modules: CruisedModule[];
  summary: {
    violations: { rule: { severity: string; name: string }; from: string; to: string }[];
    totalCruised: number;
  };
}

export default function report(results: CruiseResult): { output: string; exitCode: number };
