import 'leaflet/dist/leaflet.css';

import type { Kiosk } from '@hasta/contracts/kiosks';
import { icon, latLngBounds, layerGroup, map as createMap, marker, tileLayer } from 'leaflet';
import type { LatLngBoundsExpression, LayerGroup, Map as LeafletMap } from 'leaflet';
import markerIconRetinaUrl from 'leaflet/dist/images/marker-icon-2x.png';
import markerIconUrl from 'leaflet/dist/images/marker-icon.png';
import markerShadowUrl from 'leaflet/dist/images/marker-shadow.png';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { kioskText } from '../kiosk-text';

/** OpenStreetMap's standard tiles: the one map host the server's CSP allows (img-src). */
const TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const TILE_ATTRIBUTION =
  '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';
const MAX_TILE_ZOOM = 19;
/** Close enough to see a neighbourhood when one kiosk matches. */
const MAX_FIT_ZOOM = 12;
const FIT_PADDING_PX = 32;

/** India, south-west to north-east. */
const INDIA_BOUNDS: LatLngBoundsExpression = [
  [6.5, 68.0],
  [35.7, 97.4],
];

// Leaflet's default icon finds its images through CSS at run time; bundled ones are passed explicitly.
const KIOSK_ICON = icon({
  iconUrl: markerIconUrl,
  iconRetinaUrl: markerIconRetinaUrl,
  shadowUrl: markerShadowUrl,
  iconSize: [25, 41],
  iconAnchor: [12, 41],
  popupAnchor: [1, -34],
  shadowSize: [41, 41],
});

function popupContent(text: { name: string; address: string }): HTMLElement {
  // Built as nodes, never as HTML text: the names come from the server.
  const root = document.createElement('div');
  const name = document.createElement('strong');
  name.textContent = text.name;
  const address = document.createElement('div');
  address.textContent = text.address;
  root.append(name, address);
  return root;
}

/**
 * A Leaflet map of India with one marker per kiosk, fitted to the kiosks shown. Tiles come from
 * OpenStreetMap; when none loads (offline, blocked), the map is hidden and a note says so, as the list
 * beside it already holds everything.
 */
export default function KioskMap({ kiosks }: { kiosks: readonly Kiosk[] }) {
  const { t, i18n } = useTranslation('marketing');
  const language = i18n.language;
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<{ map: LeafletMap; markers: LayerGroup } | null>(null);
  const boundsRef = useRef<LatLngBoundsExpression>(INDIA_BOUNDS);
  const [tilesFailed, setTilesFailed] = useState(false);

  useEffect(() => {
    const container = containerRef.current;
    if (container === null) return undefined;
    const map = createMap(container, { scrollWheelZoom: false, zoomSnap: 0.5 });
    map.fitBounds(INDIA_BOUNDS);
    let tilesLoaded = 0;
    tileLayer(TILE_URL, { maxZoom: MAX_TILE_ZOOM, attribution: TILE_ATTRIBUTION })
      .on('tileload', () => {
        tilesLoaded += 1;
      })
      .on('tileerror', () => {
        if (tilesLoaded === 0) setTilesFailed(true);
      })
      .addTo(map);
    const markers = layerGroup().addTo(map);
    mapRef.current = { map, markers };

    // The dialog may lay the map out after it is created (and again on resize): refit to what is shown.
    const observer = new ResizeObserver(() => {
      if (container.clientWidth === 0) return;
      map.invalidateSize();
      map.fitBounds(boundsRef.current, { padding: [FIT_PADDING_PX, FIT_PADDING_PX], maxZoom: MAX_FIT_ZOOM });
    });
    observer.observe(container);
    return () => {
      observer.disconnect();
      map.remove();
      mapRef.current = null;
    };
  }, []);

  useEffect(() => {
    const current = mapRef.current;
    if (current === null) return;
    current.markers.clearLayers();
    for (const kiosk of kiosks) {
      const text = kioskText(kiosk, language);
      marker([kiosk.lat, kiosk.lng], { icon: KIOSK_ICON, title: text.name, alt: text.name })
        .bindPopup(popupContent(text))
        .addTo(current.markers);
    }
    boundsRef.current =
      kiosks.length === 0 ? INDIA_BOUNDS : latLngBounds(kiosks.map((kiosk) => [kiosk.lat, kiosk.lng]));
    if (current.map.getContainer().clientWidth > 0) {
      current.map.fitBounds(boundsRef.current, {
        padding: [FIT_PADDING_PX, FIT_PADDING_PX],
        maxZoom: MAX_FIT_ZOOM,
      });
    }
  }, [kiosks, language]);

  return (
    <div>
      {tilesFailed ? (
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900">
          {t('kiosk.mapUnavailable')}
        </p>
      ) : null}
      <div
        ref={containerRef}
        role="region"
        aria-label={t('kiosk.mapLabel')}
        hidden={tilesFailed}
        className="h-56 w-full overflow-hidden rounded-lg border border-slate-200 bg-slate-100"
      />
    </div>
  );
}
