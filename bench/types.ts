// The shape every benchmark module exports.
export interface Figure {
  name: string;
  value: number | string;
}

export interface Benchmark {
  /** Short name for the CLI filter. */
  name: string;
  /** Names of the figures it prints (for the filter and the help text). */
  figures: string[];
  run(): Promise<Figure[]>;
}
