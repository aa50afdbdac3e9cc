// The WHATWG URL class exists in browsers and Node alike; protocol/ uses only this much of it.
declare class URL {
  constructor(input: string, base?: string);
  readonly protocol: string;
  readonly hostname: string;
  readonly pathname: string;
  readonly origin: string;
}
