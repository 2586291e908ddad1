// swagger-client ships no types; the tests use only `execute`, typed here as far as they read it.
declare module 'swagger-client' {
  interface ExecuteOptions {
    spec: unknown;
    operationId: string;
    parameters?: Record<string, unknown>;
    requestBody?: unknown;
    requestContentType?: string;
    securities?: { authorized: Record<string, { value: string }> };
    server?: string;
  }
  interface ExecuteResponse {
    status: number;
    body: unknown;
    text: string;
    headers: Record<string, string>;
  }
  const SwaggerClient: {
    execute(options: ExecuteOptions): Promise<ExecuteResponse>;
    resolve(options: { spec: unknown }): Promise<{ spec: unknown; errors: unknown[] }>;
  };
  export default SwaggerClient;
}
