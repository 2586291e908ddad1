// The types of src/build/transpile.mjs (plain JavaScript: npm start runs it before anything is built).
export declare const ENTRIES: string[];
export declare const BUNDLED_PACKAGES: string[];
export declare const BUILD_OPTIONS: {
  bundle: true;
  splitting: true;
  plugins: import('esbuild').Plugin[];
  platform: 'node';
  format: 'esm';
  target: string;
  logLevel: 'warning';
  banner: { js: string };
};
export declare function transpile(): Promise<void>;
export declare function compileModuleBodiesWithTheChunk(code: string): { code: string; wrapped: number };
