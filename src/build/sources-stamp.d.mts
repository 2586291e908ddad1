// The types of src/build/sources-stamp.mjs (plain JavaScript: npm start runs it before anything is built).
export declare const ENTRIES: string[];
export declare function stampOf(root?: string): string;
export declare function sourcesListing(root?: string): string;
export declare function builtFromTheseSources(root?: string): boolean;
