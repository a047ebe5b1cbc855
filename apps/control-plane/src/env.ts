import type { Caller } from '@svc/core';

export interface ControlEnv {
  Variables: {
    requestId: string;
    caller: Caller;
  };
}
