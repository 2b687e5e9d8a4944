{{/* The release's base name, at most 40 characters so that every object name fits. */}}
{{- define "tideway.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "tideway.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* Selector labels of one role: (dict "ctx" $ "role" "meta") */}}
{{- define "tideway.selector" -}}
app.kubernetes.io/name: {{ .ctx.Chart.Name }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .role }}
{{- end -}}

{{- define "tideway.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{/* The ZooKeeper connect string: the external ensemble, or the chart's own. */}}
{{- define "tideway.zookeeper" -}}
{{- if .Values.zookeeper.external -}}
{{- .Values.zookeeper.external -}}
{{- else -}}
{{- $name := include "tideway.fullname" . -}}
{{- $servers := list -}}
{{- range $i := until (int .Values.zookeeper.replicas) -}}
{{- $servers = append $servers (printf "%s-zookeeper-%d.%s-zookeeper-headless.%s.svc:2181" $name $i $name $.Release.Namespace) -}}
{{- end -}}
{{- join "," $servers -}}
{{- end -}}
{{- end -}}

{{- define "tideway.store" -}}
{{- required "store.url is required: s3://BUCKET/PREFIX, or file:///data/store with store.sharedVolume" .Values.store.url -}}
{{- end -}}

{{/* Environment every Tideway process gets: (dict "ctx" $ "javaOpts" "...") */}}
{{- define "tideway.env" -}}
{{- $v := .ctx.Values -}}
- name: POD_NAME
  valueFrom: {fieldRef: {fieldPath: metadata.name}}
- name: POD_IP
  valueFrom: {fieldRef: {fieldPath: status.podIP}}
- name: NAMESPACE
  valueFrom: {fieldRef: {fieldPath: metadata.namespace}}
- name: TIDEWAY_JAVA_OPTS
  value: {{ .javaOpts | quote }}
{{- if hasPrefix "s3://" (include "tideway.store" .ctx) }}
- name: TIDEWAY_STORAGE_S3_ENDPOINT
  value: {{ $v.store.s3.endpoint | quote }}
- name: TIDEWAY_STORAGE_S3_REGION
  value: {{ $v.store.s3.region | quote }}
- name: TIDEWAY_STORAGE_S3_PATH_STYLE
  value: {{ $v.store.s3.pathStyle | quote }}
- name: TIDEWAY_STORAGE_S3_CHECKSUMS
  value: {{ $v.store.s3.checksums | quote }}
- name: TIDEWAY_STORAGE_S3_CONDITIONAL_WRITES
  value: {{ $v.store.s3.conditionalWrites | quote }}
{{- with $v.store.s3.credentials.existingSecret }}
- name: TIDEWAY_STORAGE_S3_ACCESS_KEY
  valueFrom: {secretKeyRef: {name: {{ . | quote }}, key: {{ $v.store.s3.credentials.accessKeyKey | quote }}}}
- name: TIDEWAY_STORAGE_S3_SECRET_KEY
  valueFrom: {secretKeyRef: {name: {{ . | quote }}, key: {{ $v.store.s3.credentials.secretKeyKey | quote }}}}
{{- end }}
{{- end }}
{{- with $v.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Volumes every Tideway pod mounts (the root file system is read-only). */}}
{{- define "tideway.volumes" -}}
- name: tmp
  emptyDir: {}
- name: work
  emptyDir: {}
{{- if .Values.store.sharedVolume.enabled }}
- name: store
  persistentVolumeClaim:
    claimName: {{ required "store.sharedVolume.claimName is required when the shared volume is enabled" .Values.store.sharedVolume.claimName | quote }}
{{- end }}
{{- end -}}

{{- define "tideway.volumeMounts" -}}
- name: tmp
  mountPath: /tmp
- name: work
  mountPath: /var/lib/tideway
{{- if .Values.store.sharedVolume.enabled }}
- name: store
  mountPath: /data/store
{{- end }}
{{- end -}}

{{/* Pod anti-affinity over one role's pods: (dict "ctx" $ "role" "compute") */}}
{{- define "tideway.affinity" -}}
{{- if eq .ctx.Values.antiAffinity "hard" -}}
podAntiAffinity:
  requiredDuringSchedulingIgnoredDuringExecution:
    - topologyKey: kubernetes.io/hostname
      labelSelector:
        matchLabels:
          {{- include "tideway.selector" . | nindent 10 }}
{{- else if eq .ctx.Values.antiAffinity "soft" -}}
podAntiAffinity:
  preferredDuringSchedulingIgnoredDuringExecution:
    - weight: 100
      podAffinityTerm:
        topologyKey: kubernetes.io/hostname
        labelSelector:
          matchLabels:
            {{- include "tideway.selector" . | nindent 12 }}
{{- end }}
{{- end -}}

{{/* HTTP probes on one port: (dict "port" 5692) */}}
{{- define "tideway.probes" -}}
startupProbe:
  httpGet: {path: /health/live, port: {{ .port }}}
  periodSeconds: 5
  failureThreshold: 60
livenessProbe:
  httpGet: {path: /health/live, port: {{ .port }}}
  periodSeconds: 10
  timeoutSeconds: 5
  failureThreshold: 6
readinessProbe:
  httpGet: {path: /health/ready, port: {{ .port }}}
  periodSeconds: 5
  timeoutSeconds: 3
  failureThreshold: 3
{{- end -}}
