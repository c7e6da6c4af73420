import { ScreenPlaceholder } from '../../../ui/screen-placeholder';

export function Component() {
  return <ScreenPlaceholder name="Confirm the transaction" />;
}
