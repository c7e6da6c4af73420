import { ScreenPlaceholder } from '../../../ui/screen-placeholder';

export function Component() {
  return <ScreenPlaceholder name="Recover your wallet" />;
}
