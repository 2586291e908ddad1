// autocannon ships no types; the benchmark reads only the few fields load-tool.ts names.
declare module 'autocannon';
