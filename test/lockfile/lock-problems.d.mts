export interface Lock {
  lockfileVersion: number;
  packages: Record<string, Record<string, unknown>>;
}
export declare function lockProblems(manifests: Record<string, Record<string, unknown>>, lock: Lock): string[];
