import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Loading, Notice } from './ui.js';

/**
 * A page whose code is fetched the first time it is shown (its own chunk, from 'self' like the
 * rest): the pages only an OWNER or ADMIN opens now and then stay out of the bundle everyone
 * loads. `load` must be a stable function (a module-level constant), or the page would reload.
 */
export function LazyPage(props: { load: () => Promise<ComponentType> }) {
  const [loaded, setLoaded] = useState<{ Page?: ComponentType; failed?: boolean }>({});
  useEffect(() => {
    let live = true;
    props.load().then(
      (Page) => live && setLoaded({ Page }),
      () => live && setLoaded({ failed: true }),
    );
    return () => {
      live = false;
    };
  }, [props.load]);
  if (loaded.failed) return <Notice kind="error">This page could not be loaded. Please reload it.</Notice>;
  return loaded.Page ? <loaded.Page /> : <Loading />;
}
