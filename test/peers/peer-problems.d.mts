export interface PeerManifest {
  name: string;
  peerDependencies?: Record<string, string>;
  readme: string;
}
export declare const exclusionOf: (name: string, version: string) => string;
export declare function peerProblems(packages: PeerManifest[], latest: Record<string, string>): string[];
